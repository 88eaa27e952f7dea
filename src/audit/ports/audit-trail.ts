/** The interfaces a verification can arrive through (CONTRACT §9). */
export type AuditInterface = 'legacy' | 'graphql' | 'camara';

/** What the transport knows about a request and hands to the audit recorder. */
export interface AuditContext {
  interface: AuditInterface;
  /** The request's x-correlator (given or generated). */
  correlator: string;
  /** Declared purpose from the caller's credentials (a CAMARA token's `purpose` claim); wins over the registry's. */
  purpose?: string;
}

/**
 * What a KYC Match compared (CONTRACT §11): the attributes' names and how many answered
 * "true", "false" and "not_available". Never a value: the values are personal data.
 */
export interface AuditMatchSummary {
  compared: string[];
  true: number;
  false: number;
  notAvailable: number;
}

/** One answered verification (CONTRACT §9). Holds a full msisdn: never log it. */
export interface AuditRecord {
  /** UUIDv7: unique, time-ordered; a replayed spool never inserts it twice. */
  id: string;
  /** When the answer was decided, epoch ms. */
  timeMs: number;
  /** The partner's registry name (never its api key). */
  partner: string;
  interface: AuditInterface;
  /** The registry operation, then `.` and the CAMARA operation for a CAMARA call (`kyc`, `sim_swap.check`): audit-operation.ts. */
  operation: string;
  /** The normalised international form. */
  msisdn: string;
  /** `00000`, `11111` or `9999` (or the interface's own error code, e.g. CAMARA's). */
  code: string;
  /** The HTTP status the condition has (CONTRACT §1.3), also for GraphQL items answered inside a 200. */
  httpStatus: number;
  txnId: string | null;
  correlator: string;
  purpose: string | null;
  /** True when the answer was the stored answer of an earlier request with the same txn_id. */
  replayed: boolean;
  /** A KYC Match's summary (answered ones only); absent for every other operation. */
  match?: AuditMatchSummary;
}

/**
 * Where audit records go. record() never throws; it resolves once the record would survive the
 * process's death (journaled), and the answer waits for that. Writing to the store happens off the request path.
 */
export interface AuditTrail {
  /** Never rejects. */
  record(entry: AuditRecord): Promise<void>;
  /** False while records cannot reach the audit store (they are spooled locally, or worse). */
  healthy(): boolean;
}
