import { Operation } from './operation';
import { RateLimit } from '../verification/ports/state-store';

export type SignatureScheme = 'md5' | 'hmac-sha256';

/**
 * Who the caller is to the operator (CONTRACT §2): a `partner` sees on GraphQL exactly what its
 * CAMARA calls would reveal; an `internal` app of the operator's own gets the operator's view.
 */
export type PartnerKind = 'partner' | 'internal';

export interface Partner {
  name: string;
  /** Absent: `partner`. */
  kind?: PartnerKind;
  apiKey: string;
  secret: string;
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
