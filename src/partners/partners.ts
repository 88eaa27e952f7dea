import { Operation } from './operation';

/** A partner's token bucket (CONTRACT §2): the registry holds it, the state store's rate limiter enforces it. */
export interface RateLimit {
  perSecond: number;
  burst: number;
}

export type SignatureScheme = 'md5' | 'hmac-sha256';

/**
 * Who the caller is to the operator (CONTRACT §2): a `partner` sees on GraphQL exactly what its
 * CAMARA calls would reveal; an `internal` app of the operator's own gets the operator's view.
 */
export type PartnerKind = 'partner' | 'internal';

/** One of a partner's one or two secrets (CONTRACT §12): the newer is current, the older in its grace. */
export interface PartnerSecret {
  /** Names the secret in the admin API, the change log and the built-in issuer's tokens (`sid`); never secret. */
  id: string;
  secret: string;
  createdAtMs: number;
  /** When it stops working; null: until revoked or rotated. */
  validUntilMs: number | null;
}

export interface Partner {
  name: string;
  /** Absent: `partner`. */
  kind?: PartnerKind;
  apiKey: string;
  /** The current (newest) secret: what a demo command or a single-secret reader shows. */
  secret: string;
  /**
   * Every secret held, newest first; one is valid at a time, two during a rotation's grace.
   * Absent: `secret` alone, as PRIMARY_SECRET_ID, valid until replaced.
   */
  secrets?: readonly PartnerSecret[];
  operations: ReadonlySet<Operation>;
  enabled: boolean;
  signature: SignatureScheme;
  rateLimit?: RateLimit;
  /** Declared purpose of the partner's lookups, for the audit trail (CONTRACT §9), e.g. `dpv:FraudPreventionAndDetection`. */
  purpose?: string;
}

export interface PartnerRegistry {
  /** The partner holding this api key, enabled or not; undefined when unknown. */
  find(apiKey: string): Partner | undefined;
  /** Every partner, for work done once per partner (precomputed signatures). */
  all(): readonly Partner[];
}

/** The id a secret given as a lone `secret`/`secretEnv` (the registry file's first format) has. */
export const PRIMARY_SECRET_ID = 'primary';

/** Whether a secret authenticates at nowMs (a rotation's old secret stops at its validUntil). */
export function secretValidAt(s: PartnerSecret, nowMs: number): boolean {
  return s.validUntilMs === null || nowMs < s.validUntilMs;
}

/** The secrets that authenticate at nowMs, newest first: one, or two during a rotation's grace. */
export function validSecrets(p: Partner, nowMs: number): readonly PartnerSecret[] {
  if (!p.secrets) return singleSecret(p.secret);
  return p.secrets.every((s) => secretValidAt(s, nowMs)) ? p.secrets : p.secrets.filter((s) => secretValidAt(s, nowMs));
}

/** A partner of one secret, as tests and fixtures write one. */
export function singleSecret(secret: string): PartnerSecret[] {
  return [{ id: PRIMARY_SECRET_ID, secret, createdAtMs: 0, validUntilMs: null }];
}
