import { RateLimit } from '../partners';
import { Operation } from '../operation';
import { PartnerKind, SignatureScheme } from '../partners';

/**
 * The management plane's view of the registry (CONTRACT §12): what the admin API, the console and
 * the `partners` CLI do to partners, whatever holds them (PostgreSQL or PARTNERS_FILE). A secret
 * leaves this port only once, in the answer of the call that made it.
 */

/** A secret as it may be listed: never its value. `validUntil` null: valid until revoked or rotated. */
export interface SecretInfo {
  id: string;
  createdAt: string;
  validUntil: string | null;
}

export interface PartnerView {
  name: string;
  kind: PartnerKind;
  apiKey: string;
  operations: Operation[];
  enabled: boolean;
  signature: SignatureScheme;
  rateLimit: RateLimit | null;
  purpose: string | null;
  secrets: SecretInfo[];
}

export interface NewPartner {
  name: string;
  operations: Operation[];
  kind?: PartnerKind;
  signature?: SignatureScheme;
  rateLimit?: RateLimit | null;
  purpose?: string | null;
}

/** Only what is given changes; null clears an optional field. */
export interface PartnerPatch {
  enabled?: boolean;
  operations?: Operation[];
  kind?: PartnerKind;
  signature?: SignatureScheme;
  rateLimit?: RateLimit | null;
  purpose?: string | null;
}

/** Who made a change: a signed-in person (the IdP's subject or e-mail) or an admin token's name. */
export interface Actor {
  /** `system`: the service itself (PARTNERS_FILE imported into an empty database at start). */
  type: 'person' | 'token' | 'cli' | 'system';
  name: string;
}

export type ChangeAction = 'partner.create' | 'partner.update' | 'partner.import' | 'secret.rotate' | 'secret.revoke';

/** One change log entry: before/after hold partner fields and secret ids, never a secret. */
export interface ChangeEntry {
  id: string;
  at: string;
  actor: Actor;
  action: ChangeAction;
  partner: string;
  before: Record<string, unknown> | null;
  after: Record<string, unknown> | null;
}

export interface ChangePage {
  items: ChangeEntry[];
  /** Opaque; absent on the last page. */
  nextCursor?: string;
}

export interface RotatedSecret {
  id: string;
  secret: string;
  /** When the secret it replaces stops working; null when there was none. */
  previousValidUntil: string | null;
}

/**
 * Errors: the domain's own (errors/domain-errors.ts): BadRequestError for invalid input (names
 * the field, never a value that may be secret; an empty patch too), NotFoundError for an unknown
 * partner or secret (an expired secret is unknown), ConflictError for a name or apiKey in use,
 * for revoking an enabled partner's last valid secret, for rotating a partner that already holds
 * two valid secrets (revoke one first), and for any change to the demo registry (PARTNERS_FILE
 * unset: read-only); RegistryUnavailableError (503) while the PostgreSQL store cannot be reached.
 * Every change is in force on this instance when the call resolves, on every other within 2 s.
 * Implementations: adapters/file-partner-store.ts, adapters/postgres-partner-store.ts.
 */
export interface PartnerAdmin {
  list(): Promise<PartnerView[]>;
  get(name: string): Promise<PartnerView | undefined>;
  /** The new partner and its first secret: the one time the secret is shown. */
  create(input: NewPartner, actor: Actor): Promise<{ partner: PartnerView; secret: string }>;
  update(name: string, patch: PartnerPatch, actor: Actor): Promise<PartnerView>;
  /** A new secret; the previous one stays valid for graceSeconds (default 86400, at most 30 days). */
  rotateSecret(name: string, graceSeconds: number | undefined, actor: Actor): Promise<RotatedSecret>;
  /** Revoked now, on every instance within 2 s. */
  revokeSecret(name: string, secretId: string, actor: Actor): Promise<void>;
  /** Newest first. */
  changes(query: { partner?: string; cursor?: string; limit: number }): Promise<ChangePage>;
}
