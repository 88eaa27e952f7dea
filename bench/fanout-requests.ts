import { SWAPPED } from '../src/subscriptions/domain/subscription';
import { nowMs } from './fanout-sinks';

/*
 * F1's calls to the service: subscriptions through the CAMARA API (a two-legged token of the
 * built-in issuer) and swaps through POST /internal/events/sim-swap, as SIM management reports
 * them. Phone numbers never appear in what these throw or return.
 */

export const SUBSCRIPTIONS_PATH = '/sim-swap-subscriptions/v0.3/subscriptions';

/** Runs fn over items with at most `limit` calls in flight; rejects with the first failure. */
export async function inParallel<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, lane));
}

/** `count` distinct numbers of the service's numbering plan (country code 255, 9-digit NSN), from `base`. */
export function fanoutNumbers(base: number, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `25579${String(base + i).padStart(7, '0')}`);
}

/**
 * Where subscription k goes: number k mod numbers, sink (k div numbers) mod sinks. With as many
 * subscriptions per number as sinks, each swap fans out to every sink once.
 */
export function placement(k: number, numbers: number, sinks: number): { number: number; sink: number } {
  return { number: k % numbers, sink: Math.floor(k / numbers) % sinks };
}

/** Creates `count` subscriptions; resolves with each one's id and the index of its number. */
export async function createSubscriptions(url: string, token: string, opts: { numbers: string[]; sinks: string[]; count: number; inFlight: number }): Promise<Map<string, number>> {
  const byId = new Map<string, number>();
  const ks = Array.from({ length: opts.count }, (_, k) => k);
  await inParallel(ks, opts.inFlight, async (k) => {
    const at = placement(k, opts.numbers.length, opts.sinks.length);
    const res = await fetch(url + SUBSCRIPTIONS_PATH, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        protocol: 'HTTP', sink: opts.sinks[at.sink], types: [SWAPPED],
        config: { subscriptionDetail: { phoneNumber: `+${opts.numbers[at.number]}` } },
      }),
    });
    const body = await res.json().catch(() => ({})) as { id?: unknown; code?: unknown; message?: unknown };
    if (res.status !== 201 || typeof body.id !== 'string') {
      // The ErrorInfo's code and message only: a Subscription body would carry the phone number.
      const text = (v: unknown) => (typeof v === 'string' ? v : '');
      throw new Error(`F1: creating subscription ${k} answered ${res.status} ${text(body.code)} ${text(body.message)}`);
    }
    byId.set(body.id, at.number);
  });
  return byId;
}

/** Attempts per swap: SIM management's reporter (src/simulator/swap-reporter.ts) retries a 5xx or a network error. */
export const SWAP_ATTEMPTS = 5;

export interface SwapBurst {
  /** When each number's swap was first sent (epoch ms), by number index. */
  sentAtMs: number[];
  /** First send to the 200 of each swap acknowledged, ms (retries included). */
  ackMs: number[];
  /** Attempts answered with a 5xx (or no answer: 0) and retried, by status. */
  retried: Record<string, number>;
  /** Swaps never acknowledged (a 4xx, or the last attempt failed), by the last status. */
  failed: Record<string, number>;
}

const add = (into: Record<string, number>, status: number) => { into[String(status)] = (into[String(status)] ?? 0) + 1; };

async function postSwap(url: string, eventsToken: string, msisdn: string): Promise<number> {
  try {
    const res = await fetch(`${url}/internal/events/sim-swap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${eventsToken}` },
      body: JSON.stringify({ msisdn }),
    });
    await res.arrayBuffer();
    return res.status;
  } catch {
    return 0;
  }
}

/**
 * Reports a swap of every number, `inFlight` at a time, as fast as the service acknowledges
 * them; a 503 (events not stored) is retried after 400, 800, ... ms, as the reporter does.
 */
export async function sendSwaps(url: string, eventsToken: string, numbers: string[], inFlight: number): Promise<SwapBurst> {
  const out: SwapBurst = { sentAtMs: [], ackMs: [], retried: {}, failed: {} };
  await inParallel(numbers, inFlight, async (msisdn, i) => {
    const sent = nowMs();
    out.sentAtMs[i] = sent;
    for (let attempt = 1; ; attempt++) {
      const status = await postSwap(url, eventsToken, msisdn);
      if (status === 200) {
        out.ackMs.push(nowMs() - sent);
        return;
      }
      if ((status >= 400 && status < 500) || attempt === SWAP_ATTEMPTS) {
        add(out.failed, status);
        return;
      }
      add(out.retried, status);
      await new Promise((r) => setTimeout(r, 200 * 2 ** attempt));
    }
  });
  return out;
}
