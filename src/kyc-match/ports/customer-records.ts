import { IdentityRecord } from '../identity-record';

/**
 * The operator's customer-records system (CONTRACT §11): a subscriber's verified identity.
 * Resolves the record, or null when the system holds none for the number; any unavailability
 * (down, 5xx, timeout, open circuit, unreadable answer) rejects with UpstreamUnavailableError.
 * The record is personal data: callers keep it for one request and never log, cache or echo it.
 */
export interface CustomerRecords {
  identity(msisdn: string): Promise<IdentityRecord | null>;
}
