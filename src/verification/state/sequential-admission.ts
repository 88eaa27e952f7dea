import { Admission, AdmissionControl, AdmissionRequest, RateLimiter, TxnStore } from '../ports/state-store';

/**
 * Admission from a rate limiter and a txn store that live in this process: charge, then
 * claim. Each step runs to completion without yielding to Redis, so "a refused request
 * claims nothing" holds without a script. The parts are looked up at call time, so the
 * store's own `rateLimiter` and `txns` are what admission uses.
 */
export class SequentialAdmission implements AdmissionControl {
  constructor(private readonly parts: { readonly rateLimiter: RateLimiter; readonly txns: TxnStore }) {}

  async admit(req: AdmissionRequest): Promise<Admission> {
    if (req.rate) {
      const decision = await this.parts.rateLimiter.take(req.rate.key, req.rate.limit, req.rate.cost);
      if (!decision.allowed) return { status: 'refused', retryAfterMs: decision.retryAfterMs };
    }
    if (!req.txn) return { status: 'admitted' };
    return { status: 'admitted', claim: await this.parts.txns.claim(req.txn.key, req.txn.fingerprint, req.txn.ttlS) };
  }
}
