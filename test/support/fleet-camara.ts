import { syntheticSubscriber } from '../../src/simulator/synthetic';
import { EPOCH, WARM } from './fault-traffic';
import { requestToken } from './oauth';
import { DEMO } from './signing';

/* CAMARA calls for the fleet tests: a token from one address, used at another (CONTRACT §7, §10). */

/** A client-credentials token for the demo partner from the built-in issuer at baseUrl. */
export async function camaraToken(baseUrl: string, scope = 'sim-swap:check'): Promise<string> {
  const r = await requestToken(baseUrl, { clientId: DEMO.apiKey, clientSecret: DEMO.secret, scope });
  if (r.status !== 200 || !r.body.access_token) throw new Error(`token from ${baseUrl}: ${r.status} ${r.text}`);
  return r.body.access_token;
}

/** CAMARA answers 404 for a terminated line (CONTRACT §7), which the legacy SIM swap still answers: leave those out. */
const LIVE = WARM.filter((n) => syntheticSubscriber(n, EPOCH)?.status !== 'terminated');

/** One SIM Swap check of a synthetic subscriber; the HTTP status (0: no answer) and the body. */
export async function simSwapCheck(baseUrl: string, token: string, seq = 0): Promise<{ status: number; body: unknown }> {
  const msisdn = LIVE[seq % LIVE.length] ?? '';
  try {
    const res = await fetch(`${baseUrl}/sim-swap/v2/check`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ phoneNumber: `+${msisdn}`, maxAge: 240 }),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await res.text();
    let body: unknown;
    try { body = JSON.parse(text); } catch { body = text; }
    return { status: res.status, body };
  } catch {
    return { status: 0, body: undefined };
  }
}

/**
 * CAMARA traffic beside a scenario's legacy load: SIM Swap checks through the balancer, one
 * after another at about ratePerSecond, with one token. stop() gives the statuses seen
 * ("200" → count, "0" for no answer). It stops by itself after 120 s.
 */
export function startCamaraCalls(baseUrl: string, token: string, ratePerSecond = 20) {
  let running = true;
  const deadline = Date.now() + 120_000;
  const statuses: Record<string, number> = {};
  const gapMs = 1000 / ratePerSecond;
  const loop = (async () => {
    for (let seq = 0; running && Date.now() < deadline; seq++) {
      const started = Date.now();
      const { status } = await simSwapCheck(baseUrl, token, seq);
      statuses[status] = (statuses[status] ?? 0) + 1;
      const wait = gapMs - (Date.now() - started);
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
  })();
  return {
    /** The statuses seen so far. */
    statuses: () => statuses,
    stop: async () => {
      running = false;
      await loop;
      return statuses;
    },
  };
}

/** "40 × 200, 1 × 0" */
export const formatStatuses = (s: Record<string, number>) => Object.entries(s).sort().map(([k, n]) => `${n} × ${k}`).join(', ') || 'none';
