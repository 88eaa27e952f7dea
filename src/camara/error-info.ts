import { camaraLookup } from '../errors/error-lookup';

/** CAMARA's error body (sim-swap.yaml, kyc-tenure.yaml `ErrorInfo`). */
export interface ErrorInfo {
  status: number;
  code: string;
  message: string;
}

export interface CamaraFailure {
  info: ErrorInfo;
  retryAfterS?: number;
  /** No CAMARA row for this failure: answered 500 INTERNAL, and the caller's handler logs it. */
  unexpected: boolean;
}

/** The fixed message each code carries when the condition has no reason of its own to add. */
const DEFAULT_MESSAGES: Record<string, string> = {
  UNAUTHENTICATED: 'Request not authenticated due to missing, invalid, or expired credentials. A new authentication is required.',
  PERMISSION_DENIED: 'Client does not have sufficient permissions to perform this action.',
  INTERNAL: 'Unknown server error. Typically a server bug.',
  UNAVAILABLE: 'Service Unavailable.',
};

/**
 * A CAMARA failure as an ErrorInfo (CONTRACT §7): status and code from the error catalog's
 * CAMARA column (src/errors/error-catalog.ts), with `api`'s overrides; the message is the
 * error's reason (safe to show), else the code's fixed message. Anything the catalog does not
 * map for CAMARA is 500 INTERNAL with a fixed message.
 */
export function camaraFailureOf(err: unknown, api?: string): CamaraFailure {
  const found = camaraLookup(err, api);
  const out: CamaraFailure = {
    info: { status: found.status, code: found.code, message: found.reason || (DEFAULT_MESSAGES[found.code] ?? found.code) },
    unexpected: found.unexpected,
  };
  if (found.retryAfterS !== undefined) out.retryAfterS = found.retryAfterS;
  return out;
}
