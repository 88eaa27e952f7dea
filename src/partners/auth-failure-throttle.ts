import { LRUCache } from 'lru-cache';
import { Clock } from '../kernel/clock';

export interface AuthFailureThrottleOptions {
  clock: Clock;
  /** Failed signatures per (api key, client address) within the window before that pair is refused. */
  pairLimit: number;
  /** Failed signatures per client address within the window before every attempt from it is refused. */
  addressLimit: number;
  windowS: number;
  /** Most pairs (and, separately, addresses) remembered; the one that failed least recently is forgotten first. */
  maxTracked?: number;
}

const DEFAULT_MAX_TRACKED = 50_000;
/** Registry keys are at most 128 characters; longer ones cannot exist, so their tail carries nothing. */
const MAX_KEY_LENGTH = 128;

/**
 * The times of a subject's most recent failures, at most `limit` of them, oldest first.
 * Subjects are kept in order of their last failure (lru-cache: a read is a peek, only a
 * failure is a use), so the bound forgets the one that failed least recently, in O(1).
 */
class SlidingFailureLog {
  private readonly logs: LRUCache<string, number[]>;

  constructor(private readonly limit: number, private readonly windowMs: number, maxTracked: number) {
    this.logs = new LRUCache({ max: maxTracked });
  }

  /** Milliseconds until the subject may try again; 0 when it may try now. */
  waitMs(id: string, nowMs: number): number {
    const log = this.logs.peek(id);
    if (!log || log.length < this.limit) return 0;
    return Math.max(0, log[0] + this.windowMs - nowMs);
  }

  record(id: string, nowMs: number): void {
    const log = this.logs.peek(id) ?? [];
    const cutoff = nowMs - this.windowMs;
    let expired = 0;
    while (expired < log.length && log[expired] <= cutoff) expired++;
    if (expired > 0) log.splice(0, expired);
    log.push(nowMs);
    if (log.length > this.limit) log.shift();
    this.logs.set(id, log); // the most recent failure: last to be forgotten
  }

  size(): number {
    return this.logs.size;
  }
}

/** The address bucket of a request whose client address is unknown. */
const UNKNOWN_ADDRESS = '?';

/**
 * Failed signatures, counted per (api key, client address) and per client address over a
 * sliding window. A pair or address over its limit is refused before any signature is computed,
 * so a guesser gets at most `limit` tries per window and each refused try costs two map lookups.
 * Failures from one address never throttle a key elsewhere: knowing a partner's api key is not
 * enough to lock the partner out. Only failures count: successes neither count nor reset anything.
 * Unknown keys count exactly like known ones, so a 429 never tells whether a key exists.
 *
 * Addresses are opaque here: the transport turns the client address into the unit it is counted
 * as (src/http/client-address.ts), so the domain parses no address syntax.
 */
export class AuthFailureThrottle {
  private readonly byPair: SlidingFailureLog;
  private readonly byAddress: SlidingFailureLog;

  constructor(private readonly opts: AuthFailureThrottleOptions) {
    const windowMs = opts.windowS * 1000;
    const max = opts.maxTracked ?? DEFAULT_MAX_TRACKED;
    this.byPair = new SlidingFailureLog(opts.pairLimit, windowMs, max);
    this.byAddress = new SlidingFailureLog(opts.addressLimit, windowMs, max);
  }

  /** Whole seconds (at least 1) until this key may try again from this address; undefined when it may now. */
  retryAfterS(apiKey: string | undefined, address: string | undefined): number | undefined {
    const now = this.opts.clock.nowMs();
    const from = address ?? UNKNOWN_ADDRESS;
    const wait = Math.max(
      apiKey ? this.byPair.waitMs(pairOf(apiKey, from), now) : 0,
      this.byAddress.waitMs(from, now),
    );
    return wait > 0 ? Math.max(1, Math.ceil(wait / 1000)) : undefined;
  }

  /** Counts one failed signature against the (key, address) pair and the address it came from. */
  recordFailure(apiKey: string | undefined, address: string | undefined): void {
    const now = this.opts.clock.nowMs();
    const from = address ?? UNKNOWN_ADDRESS;
    if (apiKey) this.byPair.record(pairOf(apiKey, from), now);
    this.byAddress.record(from, now);
  }

  /** How many pairs and addresses are remembered (bounded by maxTracked each). */
  tracked(): { pairs: number; addresses: number } {
    return { pairs: this.byPair.size(), addresses: this.byAddress.size() };
  }
}

/** One map key per (api key, address); the length prefix keeps `a`+`bc` apart from `ab`+`c`. */
function pairOf(apiKey: string, address: string): string {
  const key = apiKey.length > MAX_KEY_LENGTH ? apiKey.slice(0, MAX_KEY_LENGTH) : apiKey;
  return `${address.length}:${address}${key}`;
}
