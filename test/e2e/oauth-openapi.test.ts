import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { load } from 'js-yaml';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { camaraFile } from '../support/camara-spec';
import { Harness, startHarness } from '../support/harness';
import { OpenApiSpec } from '../support/openapi-validator';
import { requestToken } from '../support/oauth';
import { DEMO } from '../support/signing';

const FILE = join(__dirname, '../../docs/openapi-camara.yaml');

/** Our own description of the token endpoint and well-known documents, checked against real answers. */
describe('docs/openapi-camara.yaml', () => {
  let h: Harness;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'camara.json', ...(load(readFileSync(FILE, 'utf8')) as object) });
  const check = (ref: string, body: unknown) => {
    const validate = ajv.getSchema(`camara.json#/components/schemas/${ref}`);
    if (!validate) throw new Error(`no schema ${ref}`);
    expect({ valid: validate(body), errors: validate.errors ?? null }).toEqual({ valid: true, errors: null });
  };
  beforeAll(async () => { h = await startHarness(); });
  afterAll(() => h.close());

  it('when GET /openapi-camara.yaml is asked, then it is served as written', async () => {
    const res = await fetch(`${h.url}/openapi-camara.yaml`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/yaml/);
    expect(await res.text()).toBe(readFileSync(FILE, 'utf8'));
  });

  it('when the token endpoint is read, then its success and every error it gives are described', async () => {
    const ok = await requestToken(h.url, { clientId: DEMO.apiKey, clientSecret: DEMO.secret });
    check('TokenResponse', ok.body);
    for (const req of [{ clientId: DEMO.apiKey, clientSecret: 'x' }, { clientId: DEMO.apiKey, clientSecret: DEMO.secret, grantType: 'password' },
      { clientId: DEMO.apiKey, clientSecret: DEMO.secret, scope: 'nope' }, { contentType: 'text/plain' }]) {
      const r = await requestToken(h.url, req);
      expect(r.status).toBeGreaterThanOrEqual(400);
      check('OAuthError', r.body);
    }
  });

  it('when the JWKS and metadata are read, then they are described', async () => {
    check('JwkSet', await (await fetch(`${h.url}/.well-known/jwks.json`)).json());
    check('AuthorizationServerMetadata', await (await fetch(`${h.url}/.well-known/oauth-authorization-server`)).json());
    check('AuthorizationServerMetadata', await (await fetch(`${h.url}/.well-known/openid-configuration`)).json());
  });

  it.each(['POST', 'PUT', 'DELETE', 'PATCH'])('when %s asks a well-known document, then it is 405 with Allow: GET, HEAD, as described', async (method) => {
    const spec = OpenApiSpec.load(FILE);
    for (const path of ['/.well-known/jwks.json', '/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
      const res = await fetch(`${h.url}${path}`, { method });
      const text = await res.text();
      expect({ path, status: res.status, allow: res.headers.get('allow') }).toEqual({ path, status: 405, allow: 'GET, HEAD' });
      spec.assertResponse('get', path, res.status, res.headers, JSON.parse(text), text);
    }
  });

  it('when the access token scheme is read, then it lists every scope the service grants', async () => {
    const doc = load(readFileSync(FILE, 'utf8')) as { components: { securitySchemes: { accessToken: { flows: { clientCredentials: { scopes: object } } } } } };
    const meta = await (await fetch(`${h.url}/.well-known/oauth-authorization-server`)).json() as { scopes_supported: string[] };
    expect(Object.keys(doc.components.securitySchemes.accessToken.flows.clientCredentials.scopes).sort()).toEqual([...meta.scopes_supported].sort());
  });
});

/** The CAMARA operations as our own document describes them: every answer must match it too. */
describe('docs/openapi-camara.yaml against the CAMARA routes', () => {
  let c: CamaraHarness;
  const spec = OpenApiSpec.load(FILE);
  let all: string;
  beforeAll(async () => {
    c = await startCamaraHarness();
    // Every scope the demo partner may hold: the signal APIs' too.
    all = await c.tokens.twoLegged({});
  });
  afterAll(() => c.close());

  const cases: Array<[string, string, unknown, { token?: string | null }, number]> = [
    ['retrieve-date', '/sim-swap/v2/retrieve-date', { phoneNumber: '+255712000006' }, {}, 200],
    ['check', '/sim-swap/v2/check', { phoneNumber: '+255712000006', maxAge: 240 }, {}, 200],
    ['check-tenure', '/kyc-tenure/v0.2/check-tenure', { phoneNumber: '+255712000001', tenureDate: '2024-01-01' }, {}, 200],
    ['check without a token', '/sim-swap/v2/check', { phoneNumber: '+255712000006' }, { token: null }, 401],
    ['check with a bad token', '/sim-swap/v2/check', { phoneNumber: '+255712000006' }, { token: 'a.b.c' }, 401],
    ['check with maxAge out of range', '/sim-swap/v2/check', { phoneNumber: '+255712000006', maxAge: 2401 }, {}, 400],
    ['check without a number', '/sim-swap/v2/check', {}, {}, 422],
    ['retrieve-date for a stranger', '/sim-swap/v2/retrieve-date', { phoneNumber: '+255799999999' }, {}, 404],
    ['tenure in the future', '/kyc-tenure/v0.2/check-tenure', { phoneNumber: '+255712000001', tenureDate: '2999-01-01' }, {}, 400],
    ['device swap retrieve-date', '/device-swap/v1/retrieve-date', { phoneNumber: '+255712000011' }, {}, 200],
    ['device swap check', '/device-swap/v1/check', { phoneNumber: '+255712000011', maxAge: 24 }, {}, 200],
    ['device swap for a number never in a device', '/device-swap/v1/check', { phoneNumber: '+255712000014' }, {}, 422],
    ['unconditional call forwarding', '/call-forwarding-signal/v0.4/unconditional-call-forwardings', { phoneNumber: '+255712000012' }, {}, 200],
    ['call forwardings', '/call-forwarding-signal/v0.4/call-forwardings', { phoneNumber: '+255712000013' }, {}, 200],
    ['call forwardings with an unknown field', '/call-forwarding-signal/v0.4/call-forwardings', { phoneNumber: '+255712000013', x: 1 }, {}, 400],
    ['number recycling', '/number-recycling/v0.2/check', { phoneNumber: '+255712000015', specifiedDate: '2024-01-01' }, {}, 200],
    ['number recycling in the future', '/number-recycling/v0.2/check', { phoneNumber: '+255712000015', specifiedDate: '2999-01-01' }, {}, 400],
  ];
  it.each(cases)('when %s, then the answer is one our document describes', async (_name, path, body, opts, status) => {
    const r = await c.call(path, body, path.startsWith('/sim-swap/') || path.startsWith('/kyc-tenure/') ? opts : { token: all, ...opts });
    expect(r.status).toBe(status);
    spec.assertResponse('post', path, r.status, r.headers, r.body, r.text);
  });

  it.each<[string, string, string]>([
    ['GET', '/sim-swap-subscriptions/v0.3/subscriptions', 'the list'],
    ['GET', '/sim-swap-subscriptions/v0.3/subscriptions/0a1b2c', 'one subscription'],
    ['DELETE', '/sim-swap-subscriptions/v0.3/subscriptions/0a1b2c', 'a deletion'],
  ])('when %s of %s carries an invalid x-correlator, then the 400 is one our document describes (%s)', async (method, path) => {
    const res = await fetch(`${c.url}${path}`, { method, headers: { authorization: `Bearer ${c.token}`, 'x-correlator': 'a b' } });
    const text = await res.text();
    expect(res.status).toBe(400);
    spec.assertResponse(method, path, res.status, res.headers, JSON.parse(text), text);
  });

  it.each<[string, unknown, number]>([
    ['a match', { phoneNumber: '+255712000011', givenName: 'Jose', birthdate: '1987-04-21', familyName: 'Nunes' }, 200],
    ['phoneNumber alone', { phoneNumber: '+255712000011' }, 400],
    ['a date that is not a day', { phoneNumber: '+255712000011', birthdate: '1987-02-30' }, 400],
    ['no number', { givenName: 'Jose' }, 422],
    ['a stranger', { phoneNumber: '+255799999999', givenName: 'Jose' }, 404],
  ])('when KYC Match answers %s, then the answer is one our document describes', async (_name, body, status) => {
    const token = await c.tokens.twoLegged({ scope: 'kyc-match:match' });
    const r = await c.call('/kyc-match/v0.4/match', body, { token });
    expect(r.status).toBe(status);
    spec.assertResponse('post', '/kyc-match/v0.4/match', r.status, r.headers, r.body, r.text);
  });

  it('when KYC Match refuses a number over its daily limit, then the 429 is one our document describes, marked as the operator\'s extension (kyc-match.yaml has none)', async () => {
    const token = await c.tokens.twoLegged({ scope: 'kyc-match:match' });
    const body = { phoneNumber: '+255712000011', gender: 'MALE' };
    let r = await c.call('/kyc-match/v0.4/match', body, { token });
    for (let i = 0; i < 20 && r.status !== 429; i++) r = await c.call('/kyc-match/v0.4/match', body, { token });
    expect(r.status).toBe(429);
    spec.assertResponse('post', '/kyc-match/v0.4/match', r.status, r.headers, r.body, r.text);
    const ours = (spec.operation('post', '/kyc-match/v0.4/match')!.responses as Record<string, Record<string, unknown>>)['429'];
    expect(ours['x-operator-extension']).toBe(true);
    const official = load(readFileSync(camaraFile('kyc-match.yaml'), 'utf8')) as { paths: Record<string, { post: { responses: Record<string, unknown> } }> };
    expect(Object.keys(official.paths['/match'].post.responses)).not.toContain('429');
  });

  it('when a KYC Match body number differs from a three-legged token\'s, then the 403 is one our document describes', async () => {
    const token = await c.tokens.threeLegged('+255712000012', { scope: 'kyc-match:match' });
    const r = await c.call('/kyc-match/v0.4/match', { phoneNumber: '+255712000011', givenName: 'Jose' }, { token });
    expect(r.status).toBe(403);
    spec.assertResponse('post', '/kyc-match/v0.4/match', r.status, r.headers, r.body, r.text);
  });

  it("when a token lacks the operation's scope, then 403 as described", async () => {
    const token = await c.tokens.twoLegged({ scope: 'kyc-tenure:check-tenure' });
    const r = await c.call('/sim-swap/v2/check', { phoneNumber: '+255712000006' }, { token });
    expect(r.status).toBe(403);
    spec.assertResponse('post', '/sim-swap/v2/check', r.status, r.headers, r.body, r.text);
  });
});
