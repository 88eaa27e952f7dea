import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { After, Given, Then, When } from '@cucumber/cucumber';
import { ConformanceWorld } from '../support/world';
import { NUMBERS, defaultBody } from '../binding/demo-binding';

/*
 * Steps of the subscriptions feature (sim-swap-subscriptions.feature), which writes its
 * requests as property assignments (`"$.protocol"="HTTP"`, `"$.types"<>"…"`) and needs a
 * subscription to exist before some requests: those are created through the API itself.
 */

type W = ConformanceWorld;

const SUBSCRIPTIONS = '/sim-swap-subscriptions/v0.3/subscriptions';

/** Creates a subscription with the default body (for this number) and returns its id. */
async function createSubscription(w: W, phoneNumber: string): Promise<string> {
  const token = await w.tokens.twoLegged(['sim-swap-subscriptions:org.camaraproject.sim-swap-subscriptions.v0.swapped:create']);
  const body = defaultBody(w) as { config: { subscriptionDetail: { phoneNumber?: string } } };
  body.config.subscriptionDetail.phoneNumber = phoneNumber;
  const res = await fetch(`${w.parameters.baseUrl}${SUBSCRIPTIONS}`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  const created = (await res.json()) as { id?: unknown };
  assert.ok(res.status === 201 && typeof created.id === 'string', `creating a subscription: ${res.status} ${JSON.stringify(created)}`);
  w.facts.created = [...((w.facts.created as string[] | undefined) ?? []), created.id];
  return created.id;
}

/** The subscriptions a scenario made (its own request's too) are deleted after it: a run leaves none behind. */
After(async function (this: W) {
  const ids = [...((this.facts.created as string[] | undefined) ?? [])];
  const own = this.sentReply;
  if (this.operation?.operationId === 'createSimSwapSubscription' && own?.status === 201) ids.push(String((own.body as { id?: unknown }).id));
  if (ids.length === 0) return;
  const token = await this.tokens.twoLegged(['sim-swap-subscriptions:delete']);
  for (const id of ids) {
    await fetch(`${this.parameters.baseUrl}${SUBSCRIPTIONS}/${encodeURIComponent(id)}`, { method: 'DELETE', headers: { authorization: `Bearer ${token}` } }).then((r) => r.arrayBuffer());
  }
});

Given(/^"([^"]+)" ?<> ?"([^"]*)"$/, function (this: W, path: string, value: string) {
  const other: Record<string, unknown> = {
    '$.protocol': 'MQTT3', '$.types': ['org.camaraproject.other-api.v0.some-event'],
    '$.sinkCredential.credentialType': 'REFRESHTOKEN', '$.sinkCredential.accessTokenType': 'mac',
  };
  this.setProperty(path, other[path] ?? `not-${value}`);
});
Given('{string} is set to provided callbackUrl', function (this: W, path: string) {
  this.setProperty(path, this.parameters.sinkUrl);
});
Given('{string} is not set to an url', function (this: W, path: string) {
  this.setProperty(path, 'not a url');
});
Given('{string} is set in the past', function (this: W, path: string) {
  this.setProperty(path, new Date(Date.now() - 86_400_000).toISOString());
});
Given('{string} is not valued', function (this: W, path: string) {
  this.setProperty(path, undefined);
});
Given('{string} is valued with a valid value', function (this: W, path: string) {
  this.setProperty(path, path.endsWith('ExpiresUtc') ? new Date(Date.now() + 86_400_000).toISOString() : 'a1b2c3d4e5f6');
});
Given('{string} is set with with provided phoneNumber', function (this: W, path: string) {
  this.phoneNumber = NUMBERS.neverSwapped;
  this.setProperty(path, NUMBERS.neverSwapped);
});
Given('the request body property "$.config.subscriptionDetail.phoneNumber" is set to a valid testing phone number', function (this: W) {
  this.phoneNumber = NUMBERS.neverSwapped;
  this.setProperty('$.config.subscriptionDetail.phoneNumber', NUMBERS.neverSwapped);
});
Given('{string} is set to a valid testing device that does not allow sim swap subscription', function (this: W, path: string) {
  this.setProperty(path, NUMBERS.foreign);
});
Given('the valid access token does no identified a device', function (this: W) {
  this.auth = { kind: 'two-legged' };
});
Given('a valid subscription request body', function (this: W) {
  this.body = defaultBody(this);
});

Given('a subscription is existing and identified by an {string}', async function (this: W, _name: string) {
  this.facts.subscriptionId = await createSubscription(this, NUMBERS.neverSwapped);
});
Given('at least one subscription is existing for the API client making this request', async function (this: W) {
  this.facts.subscriptionId = await createSubscription(this, NUMBERS.neverSwapped);
});
Given('a subscription is existing for a phoneNumber', async function (this: W) {
  this.phoneNumber = NUMBERS.neverSwapped;
  this.facts.subscriptionId = await createSubscription(this, NUMBERS.neverSwapped);
});
Given('no subscription is existing for a phoneNumber', function (this: W) {
  // Business, never subscribed to by the binding.
  this.phoneNumber = '+255712000009';
});

When(/^the HTTP "(GET|DELETE)" request is sent with subscriptionId="[^"]*"$/, function (this: W, method: string) {
  this.useOperation(method === 'GET' ? 'retrieveSubscription' : 'deleteSubscription');
  this.method = method;
  this.path = `${SUBSCRIPTIONS}/${String(this.facts.subscriptionId)}`;
});
When(/^the HTTP "(GET|DELETE)" request is sent(?: with)? subscriptionId set to non-existing subscription id$/, function (this: W, method: string) {
  this.useOperation(method === 'GET' ? 'retrieveSubscription' : 'deleteSubscription');
  this.method = method;
  this.path = `${SUBSCRIPTIONS}/${randomUUID()}`;
});

Then('types, protocol, sink and config.subscriptionDetail.phoneNumber are present with provided value', async function (this: W) {
  const sent = this.body as { types: unknown; protocol: unknown; sink: unknown; config: { subscriptionDetail: unknown } };
  const got = (await this.response()).body as typeof sent;
  assert.deepEqual([got.types, got.protocol, got.sink, got.config?.subscriptionDetail], [sent.types, sent.protocol, sent.sink, sent.config.subscriptionDetail]);
});
Then('startsAt is valued with a datetime corresponding to the date time of the response', async function (this: W) {
  const startsAt = Date.parse(String(((await this.response()).body as { startsAt?: unknown }).startsAt));
  assert.ok(Math.abs(Date.now() - startsAt) < 5 * 60_000, `startsAt is ${new Date(startsAt).toISOString()}`);
});
Then('subcriptionId is provided', async function (this: W) {
  assert.equal(typeof ((await this.response()).body as { id?: unknown }).id, 'string');
});
Then(/^subscription\(s\) is\/are listed$/, async function (this: W) {
  const list = (await this.response()).body as { id: string }[];
  assert.ok(list.some((s) => s.id === this.facts.subscriptionId), 'the subscription made for this scenario is not listed');
});
Then('the subscriptions for this phoneNumber are listed', async function (this: W) {
  const list = (await this.response()).body as { id: string; config: { subscriptionDetail: { phoneNumber?: string } } }[];
  assert.ok(list.some((s) => s.id === this.facts.subscriptionId), 'the subscription made for this scenario is not listed');
  // A three-legged listing may leave the number out (the token names it); one given must be this one.
  for (const s of list) if (s.config.subscriptionDetail.phoneNumber !== undefined) assert.equal(s.config.subscriptionDetail.phoneNumber, this.phoneNumber);
});
