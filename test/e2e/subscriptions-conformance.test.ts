import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { load } from 'js-yaml';
import { camaraFile, cloudEventErrors } from '../support/camara-spec';
import { CamaraReply as Reply } from '../support/camara-harness';
import { SinkServer, startSink } from '../support/sink-server';
import { ENDED, SUBS, SWAPPED, SubReply, SubsHarness, startSubsHarness, subscriptionBody } from '../support/subscriptions-harness';

/*
 * Conformance: every scenario of the official sim-swap-subscriptions.feature (read
 * from ../shared/camara at run time) is one test named after its tag, against the real server
 * with real tokens and a real sink; every reply is validated against the official
 * sim-swap-subscriptions.yaml by the harness, every event against its CloudEvent schema.
 * Where the .feature and the .yaml disagree the .yaml wins (docs/camara.md, Subscriptions).
 */

const FEATURE = 'sim-swap-subscriptions.feature';
const PHONE = '+255712000001';
const ALL_SCOPES = 'sim-swap-subscriptions:org.camaraproject.sim-swap-subscriptions.v0.swapped:create sim-swap-subscriptions:read sim-swap-subscriptions:delete';
const CORRELATOR = 'conformance-b4333c46-49c0';

const tested = new Set<string>();
function scenario(tag: string, fn: () => Promise<void>): void {
  tested.add(tag);
  it(tag, fn);
}

function expectErrorInfo(r: Reply, status: number, code: string): void {
  expect(r.status).toBe(status);
  expect(r.body).toEqual({ status, code, message: expect.any(String) as unknown });
  expect((r.body as { message: string }).message.length).toBeGreaterThan(5);
}

describe('CAMARA conformance: sim-swap-subscriptions.feature', () => {
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

  scenario('sim_swap_subscription_creation_01_sync_creation', async () => {
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

  // Bypassed, as the scenario allows, because creation is synchronous: never a 202.
  scenario('sim_swap_subscription_creation_02_async_creation', async () => {
    const r = await create(valid());
    expect(r.status).toBe(201);
    expect(typeof (r.body as { id: unknown }).id).toBe('string');
  });

  scenario('sim_swap_subscription_retrieve_03_retrieve_by_id', async () => {
    const id = (await create(valid())).body.id;
    const r = await h.call(`${SUBS}/${id}`, undefined, { method: 'GET', token: h.subsToken, headers });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-correlator')).toBe(CORRELATOR);
    expect(r.body).toMatchObject({ id, config: { subscriptionDetail: { phoneNumber: PHONE } } });
  });

  scenario('sim_swap_subscription_retrieve_04_retrieve_list_2legs', async () => {
    const id = (await create(valid())).body.id;
    const r = await h.call(SUBS, undefined, { method: 'GET', token: h.subsToken, headers });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-correlator')).toBe(CORRELATOR);
    expect((r.body as { id: string }[]).map((s) => s.id)).toContain(id);
  });

  scenario('sim_swap_subscription_retrieve_07_retrieve_list_3legs', async () => {
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

  scenario('sim_swap_subscription_retrieve_08_retrieve_empty_list_3legs', async () => {
    const three = await h.tokens.threeLegged('+255712000006', { scope: ALL_SCOPES });
    const r = await h.call(SUBS, undefined, { method: 'GET', token: three, headers });
    expect(r.status).toBe(200);
    expect(r.body).toEqual([]);
  });

  scenario('sim_swap_subscription_delete_05_delete_subscription', async () => {
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

  scenario('sim_swap_subscription_creation_06_swapped', async () => {
    const id = (await create(subscriptionBody(`${sink.url}/swapped`, '+255712000005'))).body.id;
    const swapAt = Date.now();
    expect(await h.swap('255712000005')).toBe(200);
    const got = await sink.waitFor((d) => d.some((e) => e.path === '/swapped'));
    const event = got.find((e) => e.path === '/swapped')!;
    expect(cloudEventErrors(event.body)).toEqual([]);
    expect(event.body).toMatchObject({ type: SWAPPED, data: { phoneNumber: '+255712000005', subscriptionId: id } });
    expect(Math.abs(Date.parse(String(event.body.time)) - swapAt)).toBeLessThan(2000);
  });

  scenario('sim_swap_subscription_creation_07_subscription_ends_on_max_events', async () => {
    const id = (await create(subscriptionBody(`${sink.url}/max`, '+255712000007', {}, { subscriptionMaxEvents: 1 }))).body.id;
    expect(await h.swap('255712000007')).toBe(200);
    const got = await sink.waitFor((d) => d.filter((e) => e.path === '/max').length >= 2);
    const events = got.filter((e) => e.path === '/max');
    expect(events.map((e) => e.body.type).sort()).toEqual([SWAPPED, ENDED].sort());
    const ended = events.find((e) => e.body.type === ENDED)!;
    expect(cloudEventErrors(ended.body)).toEqual([]);
    expect(ended.body.data).toMatchObject({ terminationReason: 'MAX_EVENTS_REACHED', subscriptionId: id });
  });

  scenario('sim_swap_subscription_creation_20_invalid_protocol', async () => {
    expectErrorInfo(await create(valid({ protocol: 'MQTT3' })), 400, 'INVALID_PROTOCOL');
  });

  scenario('sim_swap_subscription_creation_21_invalid_credential', async () => {
    const r = await create(valid({ sinkCredential: { credentialType: 'REFRESHTOKEN', accessTokenType: 'bearer', accessToken: 'abc', accessTokenExpiresUtc: '2099-01-01T00:00:00Z', refreshToken: 'r', refreshTokenEndpoint: 'https://example.com/t' } }));
    expectErrorInfo(r, 400, 'INVALID_CREDENTIAL');
  });

  scenario('sim_swap_subscription_creation_22_invalid_token', async () => {
    const r = await create(valid({ sinkCredential: { credentialType: 'ACCESSTOKEN', accessTokenType: 'mac', accessToken: 'abc', accessTokenExpiresUtc: '2099-01-01T00:00:00Z' } }));
    expectErrorInfo(r, 400, 'INVALID_TOKEN');
  });

  scenario('sim_swap_subscription_creation_23_invalid_eventType', async () => {
    expectErrorInfo(await create(valid({ types: ['org.camaraproject.sim-swap-subscriptions.v0.unknown'] })), 400, 'INVALID_ARGUMENT');
  });

  scenario('sim_swap_subscription_creation_24_invalid_subscription_expire_time', async () => {
    expectErrorInfo(await create(valid({}, { subscriptionExpireTime: new Date(Date.now() - 60_000).toISOString() })), 400, 'INVALID_ARGUMENT');
  });

  scenario('sim_swap_subscription_creation_25_require_input_properties_missing', async () => {
    for (const drop of ['protocol', 'sink', 'types'] as const) {
      const body = valid();
      delete body[drop];
      expectErrorInfo(await create(body), 400, 'INVALID_ARGUMENT');
    }
    // $.config.subscriptionDetail.phoneNumber: with a two-legged token the .yaml's identifier rule applies (422).
    expectErrorInfo(await create(subscriptionBody(`${sink.url}/cb`, undefined)), 422, 'MISSING_IDENTIFIER');
  });

  scenario('sim_swap_subscription_creation_26_invalid_sink', async () => {
    expectErrorInfo(await create(subscriptionBody('not a url', PHONE, {}, { subscriptionExpireTime: '2020-01-01T00:00:00Z' })), 400, 'INVALID_ARGUMENT');
  });

  scenario('sim_swap_subscription_creation_40_no_authorization_header', async () => {
    expectErrorInfo(await create(valid(), undefined).then(() => h.call(SUBS, valid(), { token: null, headers })), 401, 'UNAUTHENTICATED');
  });

  scenario('sim_swap_subscription_creation_41_expired_access_token', async () => {
    expectErrorInfo(await create(valid(), await h.tokens.expired({ scope: ALL_SCOPES })), 401, 'UNAUTHENTICATED');
  });

  scenario('sim_swap_subscription_creation_42_invalid_access_token', async () => {
    const r = await create(valid(), `${h.subsToken.slice(0, -4)}AAAA`);
    expect(r.headers.get('content-type')).toMatch(/^application\/json/);
    expectErrorInfo(r, 401, 'UNAUTHENTICATED');
  });

  scenario('sim_swap_subscription_retrieve_80_not_found_retrieve_by_id', async () => {
    expectErrorInfo(await h.call(`${SUBS}/no-such-subscription`, undefined, { method: 'GET', token: h.subsToken }), 404, 'NOT_FOUND');
  });

  scenario('sim_swap_subscription_delete_81_not_found_delete_by_id', async () => {
    expectErrorInfo(await h.call(`${SUBS}/no-such-subscription`, undefined, { method: 'DELETE', token: h.subsToken }), 404, 'NOT_FOUND');
  });

  scenario('sim_swap_subscription_creation_101_phone_number_token_mismatch', async () => {
    const three = await h.tokens.threeLegged('+255712000002', { scope: ALL_SCOPES });
    expectErrorInfo(await create(valid(), three), 422, 'UNNECESSARY_IDENTIFIER');
  });

  // The .feature says UNSUPPORTED_IDENTIFIER; the .yaml documents SERVICE_NOT_APPLICABLE for this 422 (docs/camara.md).
  scenario('sim_swap_subscription_creation_100_not_applicable', async () => {
    expectErrorInfo(await create(subscriptionBody(`${sink.url}/cb`, '+447700900123')), 422, 'SERVICE_NOT_APPLICABLE');
  });

  scenario('sim_swap_subscription_creation_102_missing_identifier', async () => {
    expectErrorInfo(await create(subscriptionBody(`${sink.url}/cb`, undefined)), 422, 'MISSING_IDENTIFIER');
  });

  it('when the scenarios are listed, then every scenario tag of the feature file is tested, and no tag it does not have', () => {
    const tags = [...readFileSync(camaraFile(FEATURE), 'utf8').matchAll(/^\s*@(\S+)\s*$/gm)].map((m) => m[1]);
    expect([...new Set(tags)].sort()).toEqual([...tested].sort());
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
    const got = await sink.waitFor((d) => d.filter((e) => e.path === '/doc').length >= 2);
    for (const e of got.filter((x) => x.path === '/doc')) check('CloudEvent', e.body);
  });

  test('when methods or paths under the API root are unknown, then ErrorInfo', async () => {
    const put = await h.call(SUBS, {}, { method: 'PUT', token: h.subsToken });
    expectErrorInfo(put, 405, 'METHOD_NOT_ALLOWED');
    expectErrorInfo(await h.call('/sim-swap-subscriptions/v0.3/other', undefined, { method: 'GET', token: h.subsToken }), 404, 'NOT_FOUND');
  });
});
