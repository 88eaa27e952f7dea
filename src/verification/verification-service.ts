import { BadRequestError, ForbiddenError, NotSubscriberError, RateLimitedError, UpstreamUnavailableError } from '../errors/domain-errors';
import { decodeHlr, decodeSim, encodeHlr, encodeSim } from './fact-codec';
import { Operation } from '../partners/operation';
import { Clock } from '../kernel/clock';
import { Metrics } from './ports/metrics';
import { Partner } from '../partners/partners';
import { AdmissionRequest, CacheRead, StateStore } from './ports/state-store';
import { HlrClient, HlrRecord, SimClient, SimRecord } from './ports/upstreams';
import { Answer, KycResult, SimSwapResult, VerificationResult } from './results';
import { SingleFlight } from '../kernel/single-flight';
import { isSubscriber, kycFlags } from './subscriber-facts';
import { TxnGuard } from './txn-guard';
import { VerificationInput } from './verification-input';

export interface VerificationSettings {
  kycCacheTtlS: number;
  kycStaleS: number;
  simSwapCacheTtlS: number;
  negativeCacheTtlS: number;
  simSwapMaxAgeHours: number;
  txnTtlS: number;
  txnInFlightTtlS: number;
  /** txn-guard.ts: answers wait for their record (on with REDIS_WAIT_REPLICAS). */
  txnRecordBeforeAnswer?: boolean;
}

export interface VerificationServiceDeps {
  hlr: HlrClient;
  sim: SimClient;
  store: StateStore;
  clock: Clock;
  metrics: Metrics;
  settings: VerificationSettings;
  /** Store failures are survivable (the upstream still answers); they are reported here. */
  onStoreError?: (err: unknown) => void;
}

const HOUR_MS = 3_600_000;

/** The one service behind REST and GraphQL: KYC and SIM swap (CONTRACT §1, §3, §5). */
export class VerificationService {
  private readonly hlrFlights = new SingleFlight<HlrRecord | null>();
  private readonly simFlights = new SingleFlight<SimRecord | null>();
  private readonly txns: TxnGuard;
  /** A cache read verify() started alongside the admission, for this request's first read (answerReadAhead). */
  private readAhead: { key: string; entry: Promise<CacheRead> } | undefined;

  constructor(private readonly deps: VerificationServiceDeps) {
    this.txns = new TxnGuard(deps.store.txns, deps.metrics, {
      ttlS: deps.settings.txnTtlS,
      inFlightTtlS: deps.settings.txnInFlightTtlS,
      recordBeforeAnswer: deps.settings.txnRecordBeforeAnswer ?? false,
    }, deps.onStoreError);
  }

  /**
   * Checks permission and rate limit, then answers, honouring the txn_id when there is one.
   *
   * One round trip to the state store before a cache hit answers: the rate limit and the
   * txn_id claim are one atomic admission, and the cache entry the answer needs is read at the
   * same time (on another node of a cluster, perhaps), so their latencies overlap. When the
   * admission refuses, replays or conflicts, that read is simply not used. The answer's
   * record is written after the answer is returned (txn-guard.ts).
   */
  async verify(partner: Partner, input: VerificationInput): Promise<Answer> {
    this.permit(partner, [input.operation]);
    const ticket = input.txnId === undefined ? undefined : this.txns.ticket(partner.apiKey, input.txnId, input);
    const req: AdmissionRequest = { txn: ticket };
    if (partner.rateLimit) req.rate = { key: partner.apiKey, limit: partner.rateLimit, cost: 1 };
    if (!ticket && !req.rate) return { result: await this.answer(input), replayed: false };
    const key = cacheKeyOf(input);
    const ahead = this.readCache(key);
    const admission = await this.deps.store.admission.admit(req);
    if (admission.status === 'refused') throw this.refused([input.operation], admission.retryAfterMs);
    const work = () => this.answerReadAhead(input, key, ahead);
    if (!ticket) return { result: await work(), replayed: false };
    if (!admission.claim) throw new Error('state store admitted a txn_id without claiming it');
    return this.txns.settle(ticket, admission.claim, work);
  }

  /**
   * 403 unless the partner may use every operation; 429 when over its rate limit. A batch
   * costs one token per number and operation, taken once for all operations, so a refusal
   * never spends the tokens of an operation already charged; a cost above the burst could
   * never be allowed and is refused as a bad request naming the burst.
   */
  async admit(partner: Partner, operations: readonly Operation[], numbers = 1): Promise<void> {
    this.permit(partner, operations);
    const limit = partner.rateLimit;
    if (!limit) return;
    const cost = numbers * operations.length;
    if (cost > limit.burst) {
      throw new BadRequestError(`this request costs ${cost} rate-limit tokens (one per number and operation), more than the partner's burst of ${limit.burst}`);
    }
    const decision = await this.deps.store.rateLimiter.take(partner.apiKey, limit, cost);
    if (!decision.allowed) throw this.refused(operations, decision.retryAfterMs);
  }

  private permit(partner: Partner, operations: readonly Operation[]): void {
    for (const operation of operations) {
      if (!partner.operations.has(operation)) throw new ForbiddenError(`operation ${operation} is not allowed for this partner`);
    }
  }

  private refused(operations: readonly Operation[], retryAfterMs: number): RateLimitedError {
    for (const operation of operations) this.deps.metrics.rateLimited(operation);
    return new RateLimitedError('rate limit exceeded', Math.max(1, Math.ceil(retryAfterMs / 1000)));
  }

  /**
   * answer(), handing it the cache read already in flight. kyc() and simSwap() reach
   * readCache synchronously, before their first await, so the read-ahead set here is taken
   * by this request's own first read and by nothing else; were that ever not so, readCache
   * would find no read-ahead and simply read again (one more round trip, same answer).
   */
  private answerReadAhead(input: VerificationInput, key: string, entry: Promise<CacheRead>): Promise<VerificationResult> {
    this.readAhead = { key, entry };
    try {
      return this.answer(input);
    } finally {
      this.readAhead = undefined;
    }
  }

  async kyc(msisdnRaw: string, msisdn: string): Promise<KycResult> {
    const rec = await this.hlrFacts(msisdn);
    const flags = kycFlags(rec);
    if (!isSubscriber(rec)) return { msisdn: msisdnRaw, ...flags, tenureSinceMs: null };
    return { msisdn: msisdnRaw, ...flags, tenureSinceMs: rec.activatedAtMs ?? null, paymentType: rec.paymentType };
  }

  async simSwap(msisdnRaw: string, msisdn: string, maxAgeHours?: number): Promise<SimSwapResult> {
    const rec = await this.simFacts(msisdn);
    if (rec === null) throw new NotSubscriberError('msisdn is not a subscriber');
    const windowMs = (maxAgeHours ?? this.deps.settings.simSwapMaxAgeHours) * HOUR_MS;
    const swappedAt = rec.lastSimSwapAtMs;
    const latestSimChangeMs = swappedAt ?? rec.simActivatedAtMs ?? null;
    if (swappedAt === null || this.deps.clock.nowMs() - swappedAt > windowMs) {
      return { msisdn: msisdnRaw, simSwapped: false, latestSimChangeMs };
    }
    return { msisdn: msisdnRaw, simSwapped: true, simSwappedAtMs: swappedAt, latestSimChangeMs };
  }

  /**
   * A SIM swap happened: forget what is cached about the number, at once. No request after this
   * joins a lookup of the number that started before it (single-flight), and no such lookup
   * writes its answer back: the store refuses a write based on a read from before the eviction,
   * on every instance that shares it (ports/state-store.ts, Cache.set).
   */
  async evict(msisdn: string): Promise<void> {
    const keys = [kycKey(msisdn), simKey(msisdn)];
    // Before the store: even if it cannot be reached, no later request here joins a pre-swap lookup.
    this.hlrFlights.forget(keys[0]);
    this.simFlights.forget(keys[1]);
    await this.deps.store.cache.delete(keys);
  }

  private async answer(input: VerificationInput): Promise<VerificationResult> {
    switch (input.operation) {
      case 'kyc':
        return { operation: 'kyc', kyc: await this.kyc(input.msisdnRaw, input.msisdn) };
      case 'sim_swap':
        return { operation: 'sim_swap', simSwap: await this.simSwap(input.msisdnRaw, input.msisdn, input.maxAgeHours) };
      default: {
        const never: never = input.operation;
        throw new Error(`unknown operation ${String(never)}`);
      }
    }
  }

  /** KYC facts: fresh from cache, else the HLR, else (HLR unavailable) a stale answer. */
  private async hlrFacts(msisdn: string): Promise<HlrRecord | null> {
    const { settings, clock, metrics } = this.deps;
    const key = kycKey(msisdn);
    const { entry, version } = await this.readCache(key);
    const cached = entry ? decodeHlr(entry.value) : undefined;
    const ageMs = entry ? clock.nowMs() - entry.storedAtMs : Infinity;
    if (cached !== undefined && ageMs <= (cached === null ? settings.negativeCacheTtlS : settings.kycCacheTtlS) * 1000) {
      metrics.cache('kyc', 'hit');
      return cached;
    }
    metrics.cache('kyc', 'miss');
    try {
      // Joins only a lookup that started from the same version: none from before an eviction.
      return await this.hlrFlights.run(key, version, async () => {
        const rec = await this.deps.hlr.lookup(msisdn);
        await this.writeCache(key, encodeHlr(rec), rec === null ? settings.negativeCacheTtlS : settings.kycStaleS, version);
        return rec;
      });
    } catch (err) {
      if (err instanceof UpstreamUnavailableError && cached && ageMs <= settings.kycStaleS * 1000) {
        metrics.cache('kyc', 'stale');
        return cached;
      }
      throw err;
    }
  }

  /** SIM facts: from cache up to its short TTL, else SIM management; never stale (CONTRACT §5). */
  private async simFacts(msisdn: string): Promise<SimRecord | null> {
    const { settings, clock, metrics } = this.deps;
    const key = simKey(msisdn);
    const { entry, version } = await this.readCache(key);
    const cached = entry ? decodeSim(entry.value) : undefined;
    if (entry && cached !== undefined) {
      const ttlS = cached === null ? settings.negativeCacheTtlS : settings.simSwapCacheTtlS;
      if (clock.nowMs() - entry.storedAtMs <= ttlS * 1000) {
        metrics.cache('sim_swap', 'hit');
        return cached;
      }
    }
    metrics.cache('sim_swap', 'miss');
    return this.simFlights.run(key, version, async () => {
      const rec = await this.deps.sim.lookup(msisdn);
      await this.writeCache(key, encodeSim(rec), rec === null ? settings.negativeCacheTtlS : settings.simSwapCacheTtlS, version);
      return rec;
    });
  }

  /** HLR facts with the tenure fields (CAMARA, CONTRACT §7). */
  hlrFactsWithTenure(msisdn: string): Promise<HlrRecord | null> {
    return this.hlrFactsHaving(msisdn, (rec) => rec.activatedAtMs !== undefined);
  }

  /** HLR facts with every optional field: tenure, device and call forwarding (CONTRACT §11). */
  hlrFactsComplete(msisdn: string): Promise<HlrRecord | null> {
    return this.hlrFactsHaving(msisdn, isComplete);
  }

  /** From the same cache and flights as KYC; an entry cached before the fields existed is dropped and fetched again once. */
  private async hlrFactsHaving(msisdn: string, complete: (rec: HlrRecord) => boolean): Promise<HlrRecord | null> {
    const rec = await this.hlrFacts(msisdn);
    if (rec === null || complete(rec)) return rec;
    await this.dropCached(kycKey(msisdn));
    return this.hlrFacts(msisdn);
  }

  /** SIM facts with the current SIM's activation (CAMARA), as hlrFactsWithTenure does for the HLR. */
  async simFactsWithActivation(msisdn: string): Promise<SimRecord | null> {
    const rec = await this.simFacts(msisdn);
    if (rec === null || rec.simActivatedAtMs !== undefined) return rec;
    await this.dropCached(simKey(msisdn));
    return this.simFacts(msisdn);
  }

  private async dropCached(key: string): Promise<void> {
    try {
      await this.deps.store.cache.delete([key]);
    } catch (err) {
      this.deps.onStoreError?.(err);
    }
  }

  /** A store error reads as an absent key: its write then lands only if the key is still absent. */
  private async readCache(key: string): Promise<CacheRead> {
    const ahead = this.readAhead;
    if (ahead !== undefined) {
      this.readAhead = undefined;
      if (ahead.key === key) return ahead.entry;
    }
    try {
      return await this.deps.store.cache.get(key);
    } catch (err) {
      this.deps.onStoreError?.(err);
      return { entry: null, version: null };
    }
  }

  /** Writes only if the key is still at the version the lookup started from (nothing evicted since). */
  private async writeCache(key: string, value: string, ttlS: number, version: string | null): Promise<void> {
    try {
      await this.deps.store.cache.set(key, { value, storedAtMs: this.deps.clock.nowMs() }, ttlS, version);
    } catch (err) {
      this.deps.onStoreError?.(err);
    }
  }
}

function isComplete(rec: HlrRecord): boolean {
  return rec.activatedAtMs !== undefined && rec.deviceFirstSeenAtMs !== undefined && rec.deviceChangedAtMs !== undefined && rec.callForwarding !== undefined;
}

function cacheKeyOf(input: VerificationInput): string {
  return input.operation === 'kyc' ? kycKey(input.msisdn) : simKey(input.msisdn);
}

function kycKey(msisdn: string): string {
  return `kyc:${msisdn}`;
}

function simKey(msisdn: string): string {
  return `sim:${msisdn}`;
}
