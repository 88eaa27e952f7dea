import assert from 'node:assert/strict';
import { Then } from '@cucumber/cucumber';
import { ConformanceWorld } from '../support/world';

/*
 * Generic steps that judge the reply: status, headers, properties by JSONPath (`$.a.b`), and
 * the body against a schema of the API's official yaml (ajv, as the e2e tests validate it).
 */

type W = ConformanceWorld;

/** The value at a simple JSONPath (`$.a.b`, `$.list[0].x`); undefined when absent. */
export function valueAt(body: unknown, jsonPath: string): unknown {
  const parts = jsonPath.replace(/^\$\.?/, '').split(/\.|\[(\d+)\]/).filter((p) => p !== undefined && p !== '');
  let node = body;
  for (const p of parts) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string, unknown>)[p];
  }
  return node;
}

async function property(w: W, path: string): Promise<unknown> {
  return valueAt((await w.response()).body, path);
}

Then(/^the response (?:status )?code is "?(\d{3})"?$/, async function (this: W, status: string) {
  const r = await this.response();
  assert.equal(r.status, Number(status), `status ${r.status}, body ${r.text.slice(0, 300)}`);
});
Then(/^the response property "([^"]+)" is (-?\d+)$/, async function (this: W, path: string, value: string) {
  if (path !== '$.status') {
    assert.equal(await property(this, path), Number(value));
    return;
  }
  // The subscriptions feature writes the HTTP status of a success as `"$.status" is 201`, where
  // the body's own `status` is the subscription's state: a number is the HTTP status, and an
  // ErrorInfo's `status` must repeat it.
  const r = await this.response();
  assert.equal(r.status, Number(value), `status ${r.status}, body ${r.text.slice(0, 300)}`);
  const own = (r.body as { status?: unknown } | undefined)?.status;
  if (typeof own === 'number') assert.equal(own, Number(value));
});
Then(/^the response property "([^"]+)" is "([^"]*)"$/, async function (this: W, path: string, value: string) {
  assert.equal(await property(this, path), value);
});
Then(/^the response property "([^"]+)" is (true|false|null)$/, async function (this: W, path: string, value: string) {
  assert.equal(await property(this, path), JSON.parse(value));
});
Then(/^the value of response property "([^"]+)" (?:==|is) (true|false)$/, async function (this: W, path: string, value: string) {
  assert.equal(await property(this, path), value === 'true');
});
Then(/^the response property "([^"]+)" is equal to "([^"]*)"$/, async function (this: W, path: string, value: string) {
  assert.equal(await property(this, path), value);
});
Then(/^the response property "([^"]+)" contains a user friendly text$/, async function (this: W, path: string) {
  const v = await property(this, path);
  assert.ok(typeof v === 'string' && v.trim().length > 0, `${path} is ${JSON.stringify(v)}`);
});
Then(/^the response contains property "([^"]+)" whose value is one of \[([^\]]+)\]$/, async function (this: W, path: string, list: string) {
  const allowed = list.split(',').map((v) => v.trim().replace(/^"|"$/g, ''));
  const v = await property(this, path);
  assert.ok(typeof v === 'string' && allowed.includes(v), `${path} is ${JSON.stringify(v)}, not one of ${list}`);
});
Then(/^the response property "([^"]+)" contains a valid timestamp$/, async function (this: W, path: string) {
  const v = await property(this, path);
  assert.ok(typeof v === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/.test(v) && !Number.isNaN(Date.parse(v)), `${path} is ${JSON.stringify(v)}`);
});
Then(/^the response header "([^"]+)" is "([^"]+)"$/, async function (this: W, name: string, value: string) {
  const got = (await this.response()).headers.get(name) ?? '';
  // A media type may carry parameters (`application/json; charset=utf-8`).
  assert.ok(got === value || got.startsWith(`${value};`), `${name} is "${got}"`);
});
Then(/^the response header "([^"]+)" has same value as the request header "([^"]+)"$/, async function (this: W, name: string, request: string) {
  assert.equal((await this.response()).headers.get(name), this.headers[request.toLowerCase()] ?? null);
});
Then(/^the response body complies with the OAS schema at "#?([^"]+)"$/, async function (this: W, pointer: string) {
  const spec = this.op.spec;
  const errors = spec.validate(spec.resolve(`#${pointer}`), (await this.response()).body, 'body');
  assert.deepEqual(errors, [], errors.join('\n'));
});
Then(/^the response property "([^"]+)" is "([^"]+)" or "([^"]+)"$/, async function (this: W, path: string, a: string, b: string) {
  const v = await property(this, path);
  assert.ok(v === a || v === b, `${path} is ${JSON.stringify(v)}`);
});
Then(/^if the response contains property "([^"]+)", the value is compliant with OAS schema at "#?([^"]+)"$/, async function (this: W, path: string, pointer: string) {
  const v = await property(this, path);
  if (v === undefined) return;
  const spec = this.op.spec;
  const errors = spec.validate(spec.resolve(`#${pointer}`), v, path);
  assert.deepEqual(errors, [], errors.join('\n'));
});
Then(/^the response body complies with an array of OAS schema defined at "#?([^"]+)"$/, async function (this: W, pointer: string) {
  const spec = this.op.spec;
  const body = (await this.response()).body;
  assert.ok(Array.isArray(body), 'the body is not an array');
  for (const item of body) {
    const errors = spec.validate(spec.resolve(`#${pointer}`), item, 'item');
    assert.deepEqual(errors, [], errors.join('\n'));
  }
});
Then(/^the response contains the property "([^"]+)"$/, async function (this: W, path: string) {
  assert.notEqual(await property(this, path), undefined, `${path} is absent`);
});
Then(/^if the response contains property "([^"]+)", the value is one of (\[.*\])$/, async function (this: W, path: string, list: string) {
  const v = await property(this, path);
  if (v !== undefined) assert.ok((JSON.parse(list) as unknown[]).includes(v), `${path} is ${JSON.stringify(v)}`);
});
Then(/^the response body property "([^"]+)" is one of: (\[.*\])$/, async function (this: W, path: string, list: string) {
  // The list is written as strings ("true", "false") for a boolean property: compare the text.
  assert.ok((JSON.parse(list) as unknown[]).map(String).includes(String(await property(this, path))));
});
Then('the response body is a string with the value {string}', async function (this: W, value: string) {
  assert.equal((await this.response()).body, value);
});
Then(/^the response body is an array of strings with the possible values (\[.*\])$/, async function (this: W, list: string) {
  const body = (await this.response()).body;
  const allowed = JSON.parse(list) as string[];
  assert.ok(Array.isArray(body) && body.length > 0 && body.every((v) => allowed.includes(v as string)), `body is ${JSON.stringify(body)}`);
});
Then('the response property {string} is equal to an integer value between 0 and 99', async function (this: W, path: string) {
  const v = await property(this, path);
  assert.ok(Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 99, `${path} is ${JSON.stringify(v)}`);
});
Then('the correspondent score property, if exists, is not returned', async function (this: W) {
  const body = (await this.response()).body as Record<string, unknown>;
  const scores = Object.keys(body ?? {}).filter((k) => k.endsWith('MatchScore'));
  assert.deepEqual(scores, []);
});
Then(/^the response body is an empty list$/, async function (this: W) {
  assert.deepEqual((await this.response()).body, []);
});
