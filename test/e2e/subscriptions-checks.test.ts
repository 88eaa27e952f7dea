import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { load } from 'js-yaml';
import { cloudEventErrors } from '../support/camara-spec';
import { CamaraReply as Reply } from '../support/camara-harness';
import { SinkServer, startSink } from '../support/sink-server';
import { ENDED, SUBS, SWAPPED, SubReply, SubsHarness, startSubsHarness, subscriptionBody } from '../support/subscriptions-harness';

/*
 * SIM Swap Subscriptions 0.3.0 beyond its official scenarios, which the conformance kit runs as
 * they are (docs/conformance.md): the events a SIM swap and a deletion send to a real sink (the
 * kit does not drive a swap), exact listings, and the service's answers where the .feature and
 * the .yaml disagree (the .yaml wins; conformance/known-failures.json). Every reply is validated
 * against sim-swap-subscriptions.yaml by the harness, every event against its CloudEvent schema.
 */

const PHONE = '+255712000001';
const ALL_SCOPES = 'sim-swap-subscriptions:org.camaraproject.sim-swap-subscriptions.v0.swapped:create sim-swap-subscriptions:read sim-swap-subscriptions:delete';
const CORRELATOR = 'conformance-b4333c46-49c0';

function expectErrorInfo(r: Reply, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.body).toEqual({ status, code, message: expect.any(String) as unknown });
  expect((r.body as { message: string }).message.length).toBeGreaterThan(5);
}

describe('subscriptions: checks beyond the official scenarios', () => {
  let h: SubsHarness;
  let sink: SinkServer;
  const headers = { 'x-correlator': CORRELATOR };

  beforeAll(async () => {
    h = await startSubsHarness();
    sink = await startSink();
  });
  afterAll(async () => {
    await h.close();
    await sink.close();
  });

  const create = async (body: Record<string, unknown>, token = h.subsToken): Promise<SubReply> => {
    const r = await h.call(SUBS, body, { token, headers });
    return { ...r, body: r.body as SubReply['body'] };
  };
  const valid = (extra: Record<string, unknown> = {}, config: Record<string, unknown> = {}) => subscriptionBody(`${sink.url}/cb`, PHONE, extra, config);

  it('when a subscription is created, then 201 at once (never 202) with what was sent, the correlator echoed and startsAt the time of creation', async () => {
    const before = Date.now();
    const r = await create(valid());
    expect(r.status).toBe(201);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expect(r.headers.get('x-correlator')).toBe(CORRELATOR);
    expect(r.body).toMatchObject({ types: [SWAPPED], protocol: 'HTTP', sink: `${sink.url}/cb`, config: { subscriptionDetail: { phoneNumber: PHONE } } });
    const startsAt = Date.parse(String(r.body.startsAt));
    expect(startsAt).toBeGreaterThanOrEqual(before - 5);
    expect(startsAt).toBeLessThanOrEqual(Date.now());
  });


  it('when a subscription is read by id, then it, with the correlator echoed', async () => {
    const id = (await create(valid())).body.id;
    const r = await h.call(`${SUBS}/${id}`, undefined, { method: 'GET', token: h.subsToken, headers });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-correlator')).toBe(CORRELATOR);
    expect(r.body).toMatchObject({ id, config: { subscriptionDetail: { phoneNumber: PHONE } } });
  });


  it("when a three-legged token lists, then only its number's subscriptions, the number left out", async () => {
    const three = await h.tokens.threeLegged('+255712000002', { scope: ALL_SCOPES });
    const mine = await create(subscriptionBody(`${sink.url}/cb`, undefined), three);
    expect(mine.status).toBe(201);
    expect(mine.body.config).toEqual({ subscriptionDetail: {} });
    await create(valid());
    const r = await h.call(SUBS, undefined, { method: 'GET', token: three, headers });
    expect(r.status).toBe(200);
    const list = r.body as { id: string; config: unknown }[];
    expect(list.map((s) => s.id)).toEqual([mine.body.id]);
    expect(list[0].config).toEqual({ subscriptionDetail: {} });
  });


  it('when a subscription is deleted, then 204 and a subscription-ended event (SUBSCRIPTION_DELETED) valid against the yaml reaches the sink', async () => {
    const id = (await create(valid())).body.id;
    const r = await h.call(`${SUBS}/${id}`, undefined, { method: 'DELETE', token: h.subsToken, headers });
    expect(r.status).toBe(204);
    expect(r.headers.get('x-correlator')).toBe(CORRELATOR);
    const got = await sink.waitFor((d) => d.some((e) => e.body.data.subscriptionId === id));
    const event = got.find((e) => e.body.data.subscriptionId === id)!;
    expect(cloudEventErrors(event.body)).toEqual([]);
    expect(event.body).toMatchObject({ type: ENDED, data: { phoneNumber: PHONE, subscriptionId: id, terminationReason: 'SUBSCRIPTION_DELETED' } });
    expect(Math.abs(Date.parse(String(event.body.time)) - Date.now())).toBeLessThan(5000);
  });

  it('when the subscribed line is swapped, then a swapped event valid against the yaml, timed at the swap, reaches the sink', async () => {
    const id = (await create(subscriptionBody(`${sink.url}/swapped`, '+255712000005'))).body.id;
    const swapAt = Date.now();
    expect(await h.swap('255712000005')).toBe(200);
    const got = await sink.waitFor((d) => d.some((e) => e.path === '/swapped'));
    const event = got.find((e) => e.path === '/swapped')!;
    expect(cloudEventErrors(event.body)).toEqual([]);
    expect(event.body).toMatchObject({ type: SWAPPED, data: { phoneNumber: '+255712000005', subscriptionId: id } });
    expect(Math.abs(Date.parse(String(event.body.time)) - swapAt)).toBeLessThan(2000);
  });

  it('when subscriptionMaxEvents is 1 and the line is swapped, then swapped then subscription-ended with MAX_EVENTS_REACHED', async () => {
    const id = (await create(subscriptionBody(`${sink.url}/max`, '+255712000007', {}, { subscriptionMaxEvents: 1 }))).body.id;
    expect(await h.swap('255712000007')).toBe(200);
    // Until both types have come: the swapped event delivered twice (at least once) is not two events.
    await sink.waitFor((d) => [SWAPPED, ENDED].every((t) => d.some((e) => e.path === '/max' && e.body.type === t)));
    const events = sink.events().filter((e) => e.path === '/max');
    expect(events.map((e) => e.body.type).sort()).toEqual([SWAPPED, ENDED].sort());
    const ended = events.find((e) => e.body.type === ENDED)!;
    expect(cloudEventErrors(ended.body)).toEqual([]);
    expect(ended.body.data).toMatchObject({ terminationReason: 'MAX_EVENTS_REACHED', subscriptionId: id });
  });


  it('when a REFRESHTOKEN credential is sent, then 400 INVALID_CREDENTIAL', async () => {
    const r = await create(valid({ sinkCredential: { credentialType: 'REFRESHTOKEN', accessTokenType: 'bearer', accessToken: 'abc', accessTokenExpiresUtc: '2099-01-01T00:00:00Z', refreshToken: 'r', refreshTokenEndpoint: 'https://example.com/t' } }));
    expectErrorInfo(r, 400, 'INVALID_CREDENTIAL');
  });




  it('when protocol, sink or types is missing, then 400 INVALID_ARGUMENT; without a number and a two-legged token, 422 MISSING_IDENTIFIER (the yaml, not the feature)', async () => {
    for (const drop of ['protocol', 'sink', 'types'] as const) {
      const body = valid();
      delete body[drop];
      expectErrorInfo(await create(body), 400, 'INVALID_ARGUMENT');
    }
    // $.config.subscriptionDetail.phoneNumber: with a two-legged token the .yaml's identifier rule applies (422).
    expectErrorInfo(await create(subscriptionBody(`${sink.url}/cb`, undefined)), 422, 'MISSING_IDENTIFIER');
  });








  it("when another country's number is subscribed, then 422 SERVICE_NOT_APPLICABLE (the yaml's code; the feature says UNSUPPORTED_IDENTIFIER)", async () => {
    expectErrorInfo(await create(subscriptionBody(`${sink.url}/cb`, '+447700900123')), 422, 'SERVICE_NOT_APPLICABLE');
  });


});

describe('subscriptions: bad input is an ErrorInfo and stores nothing', () => {
  let strict: SubsHarness;
  let h: SubsHarness;
  let sink: SinkServer;

  beforeAll(async () => {
    sink = await startSink();
    h = await startSubsHarness();
    // CONTRACT §8 defaults for private addresses, http allowed so the address rule is what refuses.
    strict = await startSubsHarness({ SINK_ALLOW_PRIVATE: 'false' });
  });
  afterAll(async () => {
    await strict.close();
    await h.close();
    await sink.close();
  });

  async function stored(x: SubsHarness): Promise<number> {
    return ((await x.call(SUBS, undefined, { method: 'GET', token: x.subsToken })).body as unknown[]).length;
  }

  test('when the sink is not a URL, another scheme or has credentials, then INVALID_ARGUMENT; when http without SINK_ALLOW_HTTP or private, then INVALID_SINK', async () => {
    for (const sinkUrl of ['', 'sink', 'ftp://example.com/x', 'https://user:pw@example.com/x', 42]) {
      expectErrorInfo(await h.subscribe(subscriptionBody(sinkUrl as string, PHONE)), 400, 'INVALID_ARGUMENT');
    }
    for (const sinkUrl of ['http://127.0.0.1:1/x', 'http://localhost/x', 'http://10.1.2.3/x', 'http://169.254.169.254/latest', 'http://[::1]/x', 'http://[::ffff:127.0.0.1]/x', 'http://192.168.0.1/']) {
      expectErrorInfo(await strict.subscribe(subscriptionBody(sinkUrl, PHONE)), 400, 'INVALID_SINK');
    }
    const httpsOnly = await startSubsHarness({ SINK_ALLOW_HTTP: 'false' });
    try {
      expectErrorInfo(await httpsOnly.subscribe(subscriptionBody(`${sink.url}/x`, PHONE)), 400, 'INVALID_SINK');
      expect(await stored(httpsOnly)).toBe(0);
    } finally {
      await httpsOnly.close();
    }
    expect(await stored(h)).toBe(0);
    expect(await stored(strict)).toBe(0);
  });

  test('when types, expiry, maximum, credential or body shape are bad, then each is refused with the status and code the table gives', async () => {
    const bad: [Record<string, unknown>, number, string][] = [
      [subscriptionBody(sink.url, PHONE, { types: [] }), 400, 'INVALID_ARGUMENT'],
      [subscriptionBody(sink.url, PHONE, { types: [SWAPPED, SWAPPED] }), 400, 'INVALID_ARGUMENT'],
      [subscriptionBody(sink.url, PHONE, { types: 'x' }), 400, 'INVALID_ARGUMENT'],
      [subscriptionBody(sink.url, PHONE, {}, { subscriptionExpireTime: 'tomorrow' }), 400, 'INVALID_ARGUMENT'],
      [subscriptionBody(sink.url, PHONE, {}, { subscriptionExpireTime: '2099-02-30T00:00:00Z' }), 400, 'INVALID_ARGUMENT'],
      [subscriptionBody(sink.url, PHONE, {}, { subscriptionExpireTime: '2099-01-01T00:00:00' }), 400, 'INVALID_ARGUMENT'],
      [subscriptionBody(sink.url, PHONE, {}, { subscriptionMaxEvents: 0 }), 400, 'INVALID_ARGUMENT'],
      [subscriptionBody(sink.url, PHONE, {}, { subscriptionMaxEvents: 1.5 }), 400, 'INVALID_ARGUMENT'],
      [subscriptionBody(sink.url, '255712000001'), 400, 'INVALID_ARGUMENT'],
      [subscriptionBody(sink.url, PHONE, { sinkCredential: { credentialType: 'PLAIN' } }), 400, 'INVALID_ARGUMENT'],
      [subscriptionBody(sink.url, PHONE, { sinkCredential: { credentialType: 'ACCESSTOKEN', accessTokenType: 'bearer', accessToken: 'x', accessTokenExpiresUtc: '1717753038' } }), 400, 'INVALID_ARGUMENT'],
      // A sink token already expired, or expiring within the minute the subscription ends before it.
      [subscriptionBody(sink.url, PHONE, { sinkCredential: { credentialType: 'ACCESSTOKEN', accessTokenType: 'bearer', accessToken: 'x', accessTokenExpiresUtc: '2020-01-01T00:00:00Z' } }), 400, 'INVALID_ARGUMENT'],
      [subscriptionBody(sink.url, PHONE, { sinkCredential: { credentialType: 'ACCESSTOKEN', accessTokenType: 'bearer', accessToken: 'x', accessTokenExpiresUtc: new Date(Date.now() + 30_000).toISOString() } }), 400, 'INVALID_ARGUMENT'],
      [{ protocol: 'HTTP', sink: sink.url, types: [SWAPPED] }, 400, 'INVALID_ARGUMENT'],
    ];
    for (const [body, status, code] of bad) expectErrorInfo(await h.subscribe(body), status, code);
    expectErrorInfo(await h.call(SUBS, '[1,2', { token: h.subsToken }), 400, 'INVALID_ARGUMENT');
    expect(await stored(h)).toBe(0);
  });

  test("when another partner's subscription is read or deleted, then NOT_FOUND, and it stays", async () => {
    const mine = await h.subscribe(subscriptionBody(`${sink.url}/mine`, PHONE));
    expect(mine.status).toBe(201);
    const other = await h.tokens.twoLegged({ clientId: 'demo-hmac-key', clientSecret: 'demo-hmac-secret' });
    expectErrorInfo(await h.call(`${SUBS}/${mine.body.id}`, undefined, { method: 'GET', token: other }), 404, 'NOT_FOUND');
    expectErrorInfo(await h.call(`${SUBS}/${mine.body.id}`, undefined, { method: 'DELETE', token: other }), 404, 'NOT_FOUND');
    expect((await h.call(SUBS, undefined, { method: 'GET', token: other })).body).toEqual([]);
    expect((await h.call(`${SUBS}/${mine.body.id}`, undefined, { method: 'GET', token: h.subsToken })).status).toBe(200);
    // A three-legged token for another number does not see it either.
    const three = await h.tokens.threeLegged('+255712000002', { scope: ALL_SCOPES });
    expectErrorInfo(await h.call(`${SUBS}/${mine.body.id}`, undefined, { method: 'GET', token: three }), 404, 'NOT_FOUND');
    await h.call(`${SUBS}/${mine.body.id}`, undefined, { method: 'DELETE', token: h.subsToken });
  });

  test("when an operation's own scope is missing, then 403 PERMISSION_DENIED", async () => {
    const readOnly = await h.tokens.twoLegged({ scope: 'sim-swap-subscriptions:read' });
    expectErrorInfo(await h.subscribe(subscriptionBody(sink.url, PHONE), readOnly), 403, 'PERMISSION_DENIED');
    expectErrorInfo(await h.subscribe(subscriptionBody(sink.url, PHONE), h.token), 403, 'PERMISSION_DENIED');
    const createOnly = await h.tokens.twoLegged({ scope: 'sim-swap-subscriptions:org.camaraproject.sim-swap-subscriptions.v0.swapped:create' });
    const s = await h.subscribe(subscriptionBody(sink.url, PHONE), createOnly);
    expect(s.status).toBe(201);
    expectErrorInfo(await h.call(SUBS, undefined, { method: 'GET', token: createOnly }), 403, 'PERMISSION_DENIED');
    expectErrorInfo(await h.call(`${SUBS}/${s.body.id}`, undefined, { method: 'DELETE', token: readOnly }), 403, 'PERMISSION_DENIED');
    expect((await h.call(`${SUBS}/${s.body.id}`, undefined, { method: 'DELETE', token: h.subsToken })).status).toBe(204);
  });

  test('when docs/openapi-camara.yaml is read, then it describes the subscriptions and events the service gives', async () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'camara.json', ...(load(readFileSync(join(__dirname, '../../docs/openapi-camara.yaml'), 'utf8')) as object) });
    const check = (ref: string, body: unknown) => {
      const validate = ajv.getSchema(`camara.json#/components/schemas/${ref}`)!;
      expect({ valid: validate(body), errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
    };
    const s = await h.subscribe(subscriptionBody(`${sink.url}/doc`, PHONE, {
      sinkCredential: { credentialType: 'PLAIN', identifier: 'i', secret: 's' },
    }, { subscriptionMaxEvents: 1, subscriptionExpireTime: '2099-01-01T00:00:00Z' }));
    check('Subscription', s.body);
    check('SubscriptionRequest', subscriptionBody(`${sink.url}/doc`, PHONE, { sinkCredential: { credentialType: 'PLAIN', identifier: 'i', secret: 's' } }));
    expect(await h.swap('255712000001')).toBe(200);
    // Both the swapped and the ended event, each checked once (a redelivery is the same event).
    await sink.waitFor((d) => [SWAPPED, ENDED].every((t) => d.some((e) => e.path === '/doc' && e.body.type === t)));
    for (const e of sink.events().filter((x) => x.path === '/doc')) check('CloudEvent', e.body);
  });

  test('when methods or paths under the API root are unknown, then ErrorInfo', async () => {
    const put = await h.call(SUBS, {}, { method: 'PUT', token: h.subsToken });
    expectErrorInfo(put, 405, 'METHOD_NOT_ALLOWED');
    expectErrorInfo(await h.call('/sim-swap-subscriptions/v0.3/other', undefined, { method: 'GET', token: h.subsToken }), 404, 'NOT_FOUND');
  });
});
