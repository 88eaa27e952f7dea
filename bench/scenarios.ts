import { RequestKind } from './request-factory';

/**
 * Servers under test. 'service' runs with the audit trail off (AUDIT_ENABLED=false: S1 is
 * "audit off", and nothing in a bench writes to ./var); 'auditpg' is a second service process
 * that writes every audit record to the bench's own PostgreSQL (S1+auditPG: what the audit trail costs);
 * 'fanout' is F1's own service process (webhook settings, a key prefix of its own); 'waitrepl'
 * a service on a master with a replica, with REDIS_WAIT_REPLICAS=1 (S1+WAIT: what waiting for a replica costs).
 */
export type Target = 'b0' | 'b1' | 'b2' | 'b3' | 'b4' | 'service' | 'alt' | 'auditpg' | 'fanout' | 'waitrepl';

/**
 * F1, SIM swap subscriptions fan-out (one swap, many webhooks): not a load scenario like those below but a
 * phase of its own (bench/fanout-phase.ts): subscriptions, then a burst of swaps, then the
 * deliveries counted and timed at local sinks. In the full run and with --only=F1.
 */
export const FANOUT_ID = 'F1';

export interface Scenario {
  id: string;
  title: string;
  target: Target;
  kind: RequestKind;
  /** Statuses that count as the right answer; latency percentiles are over these. */
  expectStatuses: number[];
  connections: number;
  /** Open-loop rate as a share of S1's measured req/s (the latency-at-half-load run). */
  rateOfS1?: number;
  /** Whose measured req/s `rateOfS1` is a share of, when not S1's (M1@50%). */
  rateOf?: string;
  /** Upstream latency injected in the simulator for this run (ms). */
  upstreamLatencyMs?: { hlr?: number; sim?: number };
  /** The soak: a number of requests instead of a duration. */
  amount?: number;
  /**
   * Compared by ratio with other interleaved scenarios: run in short rounds, each scenario in
   * turn, so a burst of load from other processes hits all of them alike; the median counts.
   */
  interleaved?: boolean;
}

/** Closed-loop connections: enough to keep one core busy without queueing far beyond it. */
const CONNECTIONS = 32;
/**
 * S3 waits 50 ms per request on SIM management, so each connection gives at most 20 req/s:
 * 50 connections cap it at 1,000 req/s, well below what the core does with misses (S2), so
 * the run measures how well the service overlaps waits, not its CPU.
 */
export const S3_CONNECTIONS = 50;
export const S3_LATENCY_MS = 50;
export const SOAK_REQUESTS = 1_000_000;

/** The scenarios of the servers under test, each once; SCENARIOS adds the A/B twins. */
const OWN_SCENARIOS: Scenario[] = [
  { id: 'B0', title: 'node:http, fixed JSON (machine ceiling)', target: 'b0', kind: 'kyc-hot', expectStatuses: [200], connections: CONNECTIONS, interleaved: true },
  { id: 'B1', title: 'node:http + ioredis, cache-hit Redis work', target: 'b1', kind: 'kyc-hot', expectStatuses: [200], connections: CONNECTIONS, interleaved: true },
  { id: 'B2', title: 'B1\'s work on Express 5 + express.json (yardstick)', target: 'b2', kind: 'kyc-hot', expectStatuses: [200], connections: CONNECTIONS, interleaved: true },
  // S1's exact Redis commands (the service's admission script, the cache GET, the completion) on
  // B2: the fair floor of a cache hit. B4 adds one keep-alive HLR call (undici): S2's floor.
  { id: 'B3', title: 'B2 + exactly S1\'s Redis commands (hit floor)', target: 'b3', kind: 'kyc-hot', expectStatuses: [200], connections: CONNECTIONS, interleaved: true },
  { id: 'B4', title: 'B3 + one keep-alive HLR call, undici (miss floor)', target: 'b4', kind: 'kyc-distinct', expectStatuses: [200], connections: CONNECTIONS, interleaved: true },
  // The realistic mix (request-factory.ts, mixed()): KYC misses, CAMARA checks of several
  // partners, SIM swap, bad signatures; its 401s are expected.
  { id: 'M1', title: 'mix: 70% KYC miss, 20% CAMARA (4 partners), 5% SIM swap, 5% bad sig', target: 'service', kind: 'mix-m1', expectStatuses: [200, 401], connections: CONNECTIONS, interleaved: true },
  { id: 'S1', title: 'REST KYC, cache hit (7 hot numbers)', target: 'service', kind: 'kyc-hot', expectStatuses: [200], connections: CONNECTIONS, interleaved: true },
  // S1's traffic on a second service whose audit trail is on PostgreSQL; its ratio to
  // S1 (audit off) is the cost of the trail.
  { id: 'S1+auditPG', title: 'S1 with the audit trail on PostgreSQL', target: 'auditpg', kind: 'kyc-hot', expectStatuses: [200], connections: CONNECTIONS, interleaved: true },
  // Every txn_id claim and answer record on a replica before the answer (Redis WAIT).
  { id: 'S1+WAIT', title: 'S1 with REDIS_WAIT_REPLICAS=1 (master + replica)', target: 'waitrepl', kind: 'kyc-hot', expectStatuses: [200], connections: CONNECTIONS, interleaved: true },
  // CAMARA SIM swap check of the same hot numbers (cache hits) with a Bearer token of
  // the built-in issuer, verified on every request (the verified-token cache included).
  { id: 'C1', title: 'CAMARA sim-swap check, cache hit, Bearer token', target: 'service', kind: 'camara-check-hot', expectStatuses: [200], connections: CONNECTIONS, interleaved: true },
  // CAMARA KYC Match on the four demo numbers with an identity record, Bearer token: the
  // customer record is fetched on every request (never cached), the HLR facts come from cache.
  // In S1's rounds, so K1/S1 is the price of a match against a cache hit.
  { id: 'K1', title: 'CAMARA KYC Match, record fetched each time, Bearer token', target: 'service', kind: 'kyc-match-hot', expectStatuses: [200], connections: CONNECTIONS, interleaved: true },
  // CONTRACT §11: Device Swap check of hot numbers (HLR cache hits) with a Bearer token, and the
  // GraphQL signals query for 50 numbers (cache hits after the first); both paired with S1.
  { id: 'D1', title: 'CAMARA device-swap check, cache hit, Bearer token', target: 'service', kind: 'device-check-hot', expectStatuses: [200], connections: CONNECTIONS, interleaved: true },
  { id: 'G1', title: 'GraphQL signals, 50 numbers, every signal', target: 'service', kind: 'graphql-signals', expectStatuses: [200], connections: CONNECTIONS, interleaved: true },
  { id: 'S5', title: 'REST KYC, bad signature (401/429)', target: 'service', kind: 'kyc-bad-sig', expectStatuses: [401, 429], connections: CONNECTIONS, interleaved: true },
  { id: 'S6', title: 'S1 with timestamp omitted', target: 'service', kind: 'kyc-no-ts', expectStatuses: [200], connections: CONNECTIONS, interleaved: true },
  { id: 'S1@50%', title: 'S1 at half of S1\'s peak rate', target: 'service', kind: 'kyc-hot', expectStatuses: [200], connections: CONNECTIONS, rateOfS1: 0.5 },
  { id: 'S2', title: 'REST KYC, cache miss (distinct numbers)', target: 'service', kind: 'kyc-distinct', expectStatuses: [200], connections: CONNECTIONS, interleaved: true },
  { id: 'M1@50%', title: 'M1 at half of M1\'s peak rate', target: 'service', kind: 'mix-m1', expectStatuses: [200, 401], connections: CONNECTIONS, rateOfS1: 0.5, rateOf: 'M1' },
  { id: 'B1@M1', title: 'B1 at M1@50%\'s rate', target: 'b1', kind: 'kyc-hot', expectStatuses: [200], connections: CONNECTIONS, rateOfS1: 0.5, rateOf: 'M1' },
  {
    id: 'S3', title: `REST SIM swap, ${S3_LATENCY_MS} ms upstream, ${S3_CONNECTIONS} conns`, target: 'service', kind: 'sim-distinct',
    expectStatuses: [200], connections: S3_CONNECTIONS, upstreamLatencyMs: { sim: S3_LATENCY_MS },
  },
  { id: 'S4', title: 'GraphQL verifyCustomers, 50 numbers', target: 'service', kind: 'graphql-batch', expectStatuses: [200], connections: CONNECTIONS },
  // The latency floor of the machine and of the design at the rate S1@50% ran: what p99 the
  // same open-loop generator measures when the server does (almost) nothing.
  { id: 'B0@50%', title: 'B0 at S1@50%\'s rate (latency floor)', target: 'b0', kind: 'kyc-hot', expectStatuses: [200], connections: CONNECTIONS, rateOfS1: 0.5 },
  { id: 'B1@50%', title: 'B1 at S1@50%\'s rate', target: 'b1', kind: 'kyc-hot', expectStatuses: [200], connections: CONNECTIONS, rateOfS1: 0.5 },
];

/**
 * The A/B twins (docs/performance.md, "A/B runs"): every interleaved scenario of the service again on
 * the 'alt' slot, a second service (BENCH_ALT_ROOT / BENCH_ALT_NODE_FLAGS), as `<id>alt`, only with
 * --only, paired round by round with its twin. M1 has none: a twin sending distinct numbers takes a
 * block of its own (numberBase), and M1alt's would move S2's numbers. S1alt, S2alt and S5alt come
 * first, in the order they had when they were the only ones: a round's order and S2alt's numbers follow it.
 */
const FIRST_TWINS = ['S1', 'S2', 'S5'];
const twinRank = (s: Scenario) => (FIRST_TWINS.includes(s.id) ? FIRST_TWINS.indexOf(s.id) : FIRST_TWINS.length);
const ALT_SCENARIOS: Scenario[] = OWN_SCENARIOS
  .filter((s) => s.target === 'service' && s.interleaved && s.id !== 'M1')
  .sort((a, b) => twinRank(a) - twinRank(b))
  .map((s) => ({ ...s, id: `${s.id}alt`, title: `${s.id} on the alternative service (A/B)`, target: 'alt' }));

/** Every scenario: the twins stand after S6, where the first three were written by hand (the table's order). */
export const SCENARIOS: Scenario[] = ((at) => [...OWN_SCENARIOS.slice(0, at), ...ALT_SCENARIOS, ...OWN_SCENARIOS.slice(at)])(
  OWN_SCENARIOS.findIndex((s) => s.id === 'S6') + 1,
);

/** Each A/B scenario (on the 'alt' slot) and its twin on the service. */
export const ALT_TWIN: Readonly<Record<string, string>> = Object.fromEntries(ALT_SCENARIOS.map((s) => [s.id, s.id.slice(0, -'alt'.length)]));

/**
 * The control of an A/B run unless --ab-control says otherwise: S5 stops at the signature check
 * (no cache, no upstream call, no txn_id claim), so a change elsewhere cannot move it.
 */
export const DEFAULT_AB_CONTROL = 'S5';

/** The A/B scenario of a twin (S5 -> S5alt). */
export const altOf = (twin: string): string | undefined => Object.keys(ALT_TWIN).find((alt) => ALT_TWIN[alt] === twin);

/** Kinds whose every request carries a number never sent before in the run. */
const DISTINCT_KINDS = new Set<RequestKind>(['kyc-distinct', 'sim-distinct', 'mix-m1']);
/** Numbers are 2556 + 8 digits: a block of 8,000,000 per scenario that needs distinct ones (12 fit). */
export const NUMBER_BLOCK = 8_000_000;

/**
 * Where a scenario's numbers start in a round: its own block (by its place among the scenarios
 * that send distinct numbers), split between the rounds, the block's last 1,000,000 left to
 * its preflight; every round and every scenario sends numbers no other has sent.
 */
export function numberBase(s: Scenario, round: number, rounds: number): { load: number; preflight: number } {
  const ordinal = SCENARIOS.filter((x) => DISTINCT_KINDS.has(x.kind)).indexOf(s);
  const block = Math.max(0, ordinal) * NUMBER_BLOCK;
  return { load: block + Math.floor(((NUMBER_BLOCK - 1_000_000) / Math.max(1, rounds)) * round), preflight: block + NUMBER_BLOCK - 1_000_000 };
}

export const SOAK: Scenario = {
  id: 'SOAK', title: `S1 x ${SOAK_REQUESTS.toLocaleString('en-US')} requests (RSS growth)`, target: 'service',
  kind: 'kyc-hot', expectStatuses: [200], connections: CONNECTIONS, amount: SOAK_REQUESTS,
};
