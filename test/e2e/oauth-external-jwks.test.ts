import { UnauthenticatedError } from '../../src/errors/domain-errors';
import { Harness, startHarness } from '../support/harness';
import { TestIssuer, fetchToken, generateSigningJwk, startTestIssuer } from '../support/oauth';
import { DEMO } from '../support/signing';
import { until } from '../support/until';

/**
 * Moves Date.now forward by ms (the key set's age and cooldown are judged by it), instead of
 * sleeping through a whole setting's second; restored after each test.
 */
function advanceDateNow(ms: number): void {
  const earlier = Date.now.bind(Date);
  jest.spyOn(Date, 'now').mockImplementation(() => earlier() + ms);
}
const creds = { clientId: DEMO.apiKey, clientSecret: DEMO.secret };

/** Times a verification; resolves with its outcome rather than throwing. */
async function timed(h: Harness, token: string): Promise<{ ms: number; ok: boolean; reason?: string }> {
  const started = performance.now();
  try {
    await h.server.accessTokens.verify(token);
    return { ms: performance.now() - started, ok: true };
  } catch (err) {
    expect(err).toBeInstanceOf(UnauthenticatedError);
    return { ms: performance.now() - started, ok: false, reason: (err as UnauthenticatedError).reason };
  }
}

describe('external issuer JWKS faults: no request waits past the fetch timeout', () => {
  let idp: TestIssuer;
  let h: Harness | undefined;
  const TIMEOUT_MS = 300;
  const start = (env: Record<string, string> = {}) => startHarness({
    env: {
      ...idp.env, OAUTH_JWKS_TIMEOUT_MS: String(TIMEOUT_MS), OAUTH_JWKS_COOLDOWN_S: '0', OAUTH_VERIFIED_CACHE_MAX: '0', ...env,
    },
  });
  beforeEach(async () => { idp = await startTestIssuer(); });
  afterEach(async () => {
    jest.restoreAllMocks();
    await h?.close();
    h = undefined;
    await idp.close();
  });

  it('when the JWKS is down from the start, then 401 comes fast, built-in tokens are unaffected, and external tokens work once it is back', async () => {
    idp.setFault({ down: true });
    h = await start();
    const token = await idp.mint({ client_id: DEMO.apiKey, scope: 'sim-swap' });
    const down = await timed(h, token);
    expect(down).toMatchObject({ ok: false, reason: 'access token issuer keys unavailable' });
    expect(down.ms).toBeLessThan(TIMEOUT_MS + 700);
    // Again, now that no fetch is in flight: the request starts its own, which fails the same way.
    expect(await timed(h, token)).toMatchObject({ ok: false, reason: 'access token issuer keys unavailable' });
    await expect(h.server.accessTokens.verify(await fetchToken(h.url, creds))).resolves.toBeDefined();
    idp.setFault({});
    expect(await timed(h, token)).toMatchObject({ ok: true });
  });

  it('when the JWKS is slow on first use, then the request is answered 401 within the timeout', async () => {
    idp.setFault({ delayMs: 5000 });
    h = await start();
    const r = await timed(h, await idp.mint({ client_id: DEMO.apiKey }));
    expect(r.ok).toBe(false);
    expect(r.ms).toBeLessThan(TIMEOUT_MS + 700);
  });

  it('when the JWKS is down or slow past its max age, then keys already known keep verifying, without waiting', async () => {
    h = await start({ OAUTH_JWKS_MAX_AGE_S: '1' });
    expect(await timed(h, await idp.mint({ client_id: DEMO.apiKey }))).toMatchObject({ ok: true });
    advanceDateNow(1000); // the keys are now stale: each use triggers a background refresh
    idp.setFault({ down: true });
    const fetchesBefore = idp.fetches();
    for (let i = 0; i < 3; i++) expect(await timed(h, await idp.mint({ client_id: DEMO.apiKey }))).toMatchObject({ ok: true });
    // The keys were stale: a use started a background refresh (which the down issuer failed).
    await until(() => idp.fetches() > fetchesBefore, 'a background refresh of the stale keys', 5000);
    idp.setFault({ delayMs: 5000 });
    const slow = await timed(h, await idp.mint({ client_id: DEMO.apiKey }));
    expect(slow.ok).toBe(true);
    expect(slow.ms).toBeLessThan(TIMEOUT_MS);
  });

  it('when a kid is unknown while the JWKS is slow, then it waits at most the timeout, then 401; known kids do not wait', async () => {
    h = await start();
    expect(await timed(h, await idp.mint({ client_id: DEMO.apiKey }))).toMatchObject({ ok: true });
    idp.setFault({ delayMs: 5000 });
    const stranger = await generateSigningJwk('ES256', 'unknown-kid');
    const fetchesBefore = idp.fetches();
    const [unknown, known] = await Promise.all([
      timed(h, await idp.mint({ client_id: DEMO.apiKey }, { key: stranger })),
      // The known kid is verified while the unknown one's refetch is at the issuer.
      (async () => {
        await until(() => idp.fetches() > fetchesBefore, 'the refetch of the unknown kid at the issuer', 5000, 5);
        return timed(h, await idp.mint({ client_id: DEMO.apiKey }));
      })(),
    ]);
    expect(unknown.ok).toBe(false);
    expect(unknown.ms).toBeGreaterThanOrEqual(TIMEOUT_MS - 50);
    expect(unknown.ms).toBeLessThan(TIMEOUT_MS + 700);
    expect(known.ok).toBe(true);
    expect(known.ms).toBeLessThan(TIMEOUT_MS);
  });

  it('when kids are unknown, then the JWKS is refetched at most once per cooldown', async () => {
    h = await start({ OAUTH_JWKS_COOLDOWN_S: '1' });
    expect(await timed(h, await idp.mint({ client_id: DEMO.apiKey }))).toMatchObject({ ok: true });
    expect(idp.fetches()).toBe(1); // the start-up prefetch
    advanceDateNow(1000); // the cooldown of the prefetch is over
    const stranger = await generateSigningJwk('ES256', 'unknown-kid');
    for (let i = 0; i < 5; i++) {
      expect(await timed(h, await idp.mint({ client_id: DEMO.apiKey }, { key: stranger }))).toMatchObject({ ok: false, reason: 'access token signing key unknown' });
    }
    expect(idp.fetches()).toBe(2);
  });

  it('when the issuer rotates its keys, then the one refetch an unknown kid triggers picks the rotation up', async () => {
    h = await start({ OAUTH_JWKS_COOLDOWN_S: '0' });
    expect(await timed(h, await idp.mint({ client_id: DEMO.apiKey }))).toMatchObject({ ok: true });
    const before = idp.fetches();
    await idp.rotate({ dropOld: true });
    expect(await timed(h, await idp.mint({ client_id: DEMO.apiKey }))).toMatchObject({ ok: true });
    expect(idp.fetches()).toBe(before + 1);
  });
});
