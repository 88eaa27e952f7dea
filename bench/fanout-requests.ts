import { SWAPPED } from '../src/domain/subscriptions/subscription';
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

export interface SwapBurst {
  /** When each number's swap was sent (epoch ms), by number index. */
  sentAtMs: number[];
  /** Time to the 200 of each swap, ms. */
  ackMs: number[];
  /** Swaps not answered 200, by status. */
  failed: Record<string, number>;
}

/** Reports a swap of every number, `inFlight` at a time, as fast as the service acknowledges them. */
export async function sendSwaps(url: string, eventsToken: string, numbers: string[], inFlight: number): Promise<SwapBurst> {
  const out: SwapBurst = { sentAtMs: [], ackMs: [], failed: {} };
  await inParallel(numbers, inFlight, async (msisdn, i) => {
    const sent = nowMs();
    out.sentAtMs[i] = sent;
    let status: number;
    try {
      const res = await fetch(`${url}/internal/events/sim-swap`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${eventsToken}` },
        body: JSON.stringify({ msisdn }),
      });
      await res.arrayBuffer();
      status = res.status;
    } catch {
      status = 0;
    }
    if (status === 200) out.ackMs.push(nowMs() - sent);
    else out.failed[String(status)] = (out.failed[String(status)] ?? 0) + 1;
  });
  return out;
}
