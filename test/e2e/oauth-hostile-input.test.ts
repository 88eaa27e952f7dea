import fc from 'fast-check';
import { Harness, startHarness } from '../support/harness';
import { TestIssuer, startTestIssuer } from '../support/oauth';
import { DEMO } from '../support/signing';

/** Property: whatever a client sends to the token endpoint, the answer is an RFC 6749 error or a token, never a 5xx. */
describe('hostile input on the OAuth surface', () => {
  let h: Harness;
  let idp: TestIssuer;
  beforeAll(async () => {
    idp = await startTestIssuer();
    // A high failure limit: this suite sends hundreds of wrong secrets on purpose.
    h = await startHarness({ env: { ...idp.env, AUTH_FAIL_LIMIT: '10000', AUTH_FAIL_ADDRESS_LIMIT: '10000' } });
  });
  afterAll(async () => {
    await h.close();
    await idp.close();
  });

  const field = fc.oneof(
    fc.constantFrom('client_credentials', 'password', DEMO.apiKey, DEMO.secret, 'sim-swap', 'sim-swap:check kyc-tenure:check-tenure', ''),
    fc.string({ maxLength: 40 }),
    fc.string({ unit: 'binary', maxLength: 40 }),
  );
  const name = fc.constantFrom('grant_type', 'scope', 'client_id', 'client_secret', 'grant_type', 'x');
  const form = fc.array(fc.tuple(name, field), { maxLength: 6 }).map((pairs) => pairs.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&'));
  const rawBody = fc.oneof(form, fc.string({ unit: 'binary', maxLength: 200 }), fc.constant('%'), fc.constant('a=%E0%A4%A'));
  const contentType = fc.constantFrom('application/x-www-form-urlencoded', 'application/x-www-form-urlencoded; charset=utf-8',
    'APPLICATION/X-WWW-FORM-URLENCODED', 'application/x-www-form-urlencoded; charset=latin1', 'application/json', 'text/plain', 'multipart/form-data');
  const authorization = fc.oneof(
    fc.constant(undefined),
    fc.constant(`Basic ${Buffer.from(`${DEMO.apiKey}:${DEMO.secret}`).toString('base64')}`),
    fc.string({ maxLength: 60 }).map((s) => `Basic ${Buffer.from(s).toString('base64')}`),
    fc.string({ maxLength: 60 }).map((s) => `Basic ${s}`),
    fc.string({ unit: 'binary-ascii', maxLength: 60 }).filter((s) => /^[\t\x20-\x7e]*$/.test(s)),
  );

  it('when the token endpoint gets anything, then it answers 200 with a token or 4xx with an OAuth error, never 5xx', async () => {
    await fc.assert(fc.asyncProperty(rawBody, contentType, authorization, async (body, type, auth) => {
      const headers: Record<string, string> = { 'content-type': type };
      if (auth !== undefined) headers.authorization = auth;
      const res = await fetch(`${h.url}/oauth2/token`, { method: 'POST', headers, body });
      const json = await res.json() as Record<string, unknown>;
      expect(res.headers.get('cache-control')).toBe('no-store');
      if (res.status === 200) {
        expect(json.token_type).toBe('Bearer');
      } else {
        expect([400, 401]).toContain(res.status);
        expect(['invalid_request', 'invalid_client', 'invalid_scope', 'unsupported_grant_type']).toContain(json.error);
      }
    }), { numRuns: 300 });
  });

  it('when tokens are arbitrary or mangled, then the verifier rejects them with UnauthenticatedError only', async () => {
    const good = await idp.mint({ client_id: DEMO.apiKey, scope: 'sim-swap' });
    const mangled = fc.tuple(fc.nat({ max: good.length - 1 }), fc.string({ minLength: 1, maxLength: 3 }))
      .map(([i, s]) => good.slice(0, i) + s + good.slice(i + 1))
      .filter((t) => t !== good);
    const arbitrary = fc.oneof(mangled, fc.string({ maxLength: 300 }), fc.tuple(fc.base64String(), fc.base64String(), fc.base64String()).map((p) => p.join('.')));
    await fc.assert(fc.asyncProperty(arbitrary, async (token) => {
      const outcome = await h.server.accessTokens.verify(token).then(() => 'accepted', (e: Error) => e.name);
      // A change inside the base64 padding bits can leave the token intact: then it is accepted.
      expect(['UnauthenticatedError', 'accepted']).toContain(outcome);
    }), { numRuns: 300 });
  });
});
