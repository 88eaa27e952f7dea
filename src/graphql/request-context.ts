import DataLoader from 'dataloader';
import { Response } from 'express';
import { AuditRequest } from '../audit/audit-recorder';
import { Partner } from '../partners/partners';
import { MonitoredPeriods, monitoredFor } from './caller-view';
import { KycResult, SimSwapResult } from '../verification/results';
import { HlrRecord, SimRecord } from '../verification/ports/upstreams';
import { VerificationService } from '../verification/verification-service';

export interface SimSwapKey {
  /** Normalised international form. */
  msisdn: string;
  maxAgeHours?: number;
}

/**
 * Per-request memo of the facts asked for, keyed by the normalised number: duplicates in a
 * batch, other spellings of one number and the same number in several fields share one
 * lookup, so each upstream sees one call per distinct number. Results carry the normalised
 * msisdn; the resolvers put back the number as each caller spelled it.
 */
export interface FactLoaders {
  kyc: DataLoader<string, KycResult>;
  simSwap: DataLoader<SimSwapKey, SimSwapResult, string>;
  /** The HLR's record with every optional field (the signals query); null: not a subscriber. */
  hlr: DataLoader<string, HlrRecord | null>;
  /** SIM management's record with the current SIM's activation (the signals query); null: no SIM. */
  sim: DataLoader<string, SimRecord | null>;
}

/** What the loaders use of the service: the facts, never the txn or admission logic. */
export type FactSource = Pick<VerificationService, 'kyc' | 'simSwap' | 'hlrFactsComplete' | 'simFactsWithActivation'>;

/** Built once per GraphQL request, so nothing is remembered across requests or partners. */
export function createFactLoaders(source: FactSource): FactLoaders {
  return {
    kyc: new DataLoader((keys: readonly string[]) => settleEach(keys, (msisdn) => source.kyc(msisdn, msisdn))),
    simSwap: new DataLoader(
      (keys: readonly SimSwapKey[]) => settleEach(keys, (k) => source.simSwap(k.msisdn, k.msisdn, k.maxAgeHours)),
      // The same number with another window is another answer, but the service's single
      // flight and cache still give it the same upstream call.
      { cacheKeyFn: (k) => `${k.msisdn}|${k.maxAgeHours ?? ''}` },
    ),
    hlr: new DataLoader((keys: readonly string[]) => settleEach(keys, (msisdn) => source.hlrFactsComplete(msisdn))),
    sim: new DataLoader((keys: readonly string[]) => settleEach(keys, (msisdn) => source.simFactsWithActivation(msisdn))),
  };
}

/** DataLoader wants one value or Error per key; one number's failure must not fail the others. */
function settleEach<K, V>(keys: readonly K[], load: (key: K) => Promise<V>): Promise<(V | Error)[]> {
  return Promise.all(keys.map((key) => load(key).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))))));
}

/** What every resolver of one request shares. */
export interface GraphqlContext {
  /** Authenticated before Apollo saw the request (request-guards.ts). */
  partner: Partner;
  loaders: FactLoaders;
  /** The monitored periods this caller is bound by: none for an internal app (caller-view.ts). */
  monitored: MonitoredPeriods;
  /** The request as the audit sees it: a refusal is recorded once for it, not per number or field. */
  audit: AuditRequest;
  /** Set when a txnId field was answered from the stored answer: Idempotent-Replayed, as REST. */
  replayed: boolean;
  /** Longest Retry-After any rate-limited field asked for. */
  retryAfterS?: number;
  /** For the request log and metrics (res.locals.code) and response headers. */
  res: Response;
}

export function createContext(res: Response, facts: FactSource, periods: MonitoredPeriods): GraphqlContext {
  const partner = res.locals.partner as Partner | undefined;
  // The guard runs first on every route to Apollo; a missing partner is a wiring bug, not a 401.
  if (!partner) throw new Error('GraphQL request reached Apollo without an authenticated partner');
  return { partner, loaders: createFactLoaders(facts), monitored: monitoredFor(partner, periods), audit: { refusalRecorded: false }, replayed: false, res };
}
