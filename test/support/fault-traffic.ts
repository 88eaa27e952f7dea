import { IncomingHttpHeaders } from 'node:http';
import { syntheticSubscriber } from '../../src/simulator/synthetic';
import { partnerApiSpec } from './openapi-validator';
import { DEMO } from './signing';
import { Credentials, LoadOperation, LoadRequest, Sample, SteadyLoad } from './steady-load';
import { until } from './until';

/* The fault suite's traffic (who asks what, signed how), the ways it selects replies, and its phases. */

// ---- numbers -------------------------------------------------------------------------------

export const EPOCH = new Date();
/** Subscribers of the synthetic simulator (a SIM swap of anyone else is a 404, not a fault). */
function* subscribers(prefix: string): Generator<string> {
  for (let i = 0; ; i++) {
    const n = `${prefix}${String(i).padStart(12 - prefix.length, '0')}`;
    if (syntheticSubscriber(n, EPOCH)) yield n;
  }
}
export const WARM: string[] = [];
for (const n of subscribers('25577')) if (WARM.push(n) === 24) break;
/** Never asked before: no cache entry, so only the HLR can answer. */
const cold = subscribers('25578');

/** The forms of one number a partner may send (CONTRACT §1.4); all share one cache entry. */
function form(msisdn: string, seq: number): string {
  switch (seq % 3) {
    case 0: return msisdn;
    case 1: return `0${msisdn.slice(3)}`;
    default: return `+${msisdn}`;
  }
}

/** A seeded PRNG (mulberry32): the same mix every run. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

/**
 * About a quarter each: KYC of a cached number, KYC of a new one, SIM swap of each kind; a
 * quarter signed without `timestamp`, as seed clients sign. Drawn at random rather than in turn: the simulator fails exactly every second call, and a strict
 * rotation would line the failures up with one kind of request.
 */
export function mixed(credentials: (seq: number) => Credentials = () => DEMO, seed = 7) {
  const random = prng(seed);
  return (seq: number): LoadRequest => {
    const op: LoadOperation = random() < 0.5 ? 'kyc' : 'sim_swap';
    const warm = random() < 0.5;
    const msisdn = warm ? form(WARM[Math.floor(random() * WARM.length)], seq) : cold.next().value as string;
    return { op, msisdn, credentials: credentials(seq), omitTimestamp: random() < 0.25, tag: warm ? 'warm' : 'cold' };
  };
}

export function openApiCheck(op: LoadOperation, status: number, headers: IncomingHttpHeaders, body: unknown): string[] {
  const get = (name: string) => {
    const v = headers[name.toLowerCase()];
    return v === undefined ? null : Array.isArray(v) ? v.join(', ') : v;
  };
  return partnerApiSpec().responseErrors('post', `/eai/verify_customer/query/${op}`, status, { get }, body);
}

// ---- selections ----------------------------------------------------------------------------

export interface Filter { op?: LoadOperation; tag?: string; from?: number; to?: number }
export function pick(samples: readonly Sample[], f: Filter): Sample[] {
  return samples.filter((s) => (f.op === undefined || s.op === f.op) && (f.tag === undefined || s.tag === f.tag)
    && (f.from === undefined || s.sentAt >= f.from) && (f.to === undefined || s.sentAt < f.to));
}
export const statuses = (samples: readonly Sample[]) => [...new Set(samples.map((s) => s.status))].sort();
export const count = (samples: readonly Sample[], status: number) => samples.filter((s) => s.status === status).length;
export const share = (part: number, whole: number) => `${whole ? Math.round((100 * part) / whole) : 0} %`;
/** "61 × ECONNREFUSED, 31 × ECONNRESET" */
export function byError(samples: readonly Sample[]): string {
  const n = new Map<string, number>();
  for (const s of samples) n.set(s.error ?? '?', (n.get(s.error ?? '?') ?? 0) + 1);
  return [...n].sort().map(([e, c]) => `${c} × ${e}`).join(', ');
}
export function median(values: number[]): number {
  const v = [...values].sort((a, b) => a - b);
  return v.length ? v[Math.floor(v.length / 2)] : 0;
}

// ---- phases --------------------------------------------------------------------------------

/** Each phase lasts until it holds this many answers of the kind it is judged by (the checks want more than 20). */
export const PHASE = 40;

/**
 * Waits until the answered samples matching f, sent at least 100 ms ago, satisfy ok: a phase
 * ends on what it is judged by, not after a guessed time. (The windows the checks read end
 * 100 ms before the phase does, so a sample counted here is in them.)
 */
export async function phase(l: SteadyLoad, f: Filter, what: string, ok: (s: Sample[]) => boolean = (s) => s.length >= PHASE): Promise<void> {
  await until(() => ok(pick(l.samples, { ...f, to: Date.now() - 100 })), what, 30_000);
}

/** Resolves once every request the load has sent so far has its answer (or its failure). */
export async function allAnswered(l: SteadyLoad): Promise<void> {
  const n = l.sent();
  await until(() => l.samples.filter((s) => s.seq < n).length >= n, `answers to the ${n} requests sent so far`, 30_000);
}
