import { isPlainObject } from '../../kernel/plain-object';
import { CustomerRecords, IDENTITY_FIELDS, IdentityRecord } from '../ports/customer-records';
import { HttpUpstream, HttpUpstreamOptions } from './http-upstream';

/**
 * Reads an identity record (CONTRACT §11): a JSON object whose fields carry the KYC Match
 * request's names. Fields with other names (the simulator's `msisdn`) and values that are not
 * strings (`identityVerified`: not a boolean) are left out: a field the record cannot use is a field it lacks ("not_available").
 * Anything but an object is an upstream fault; the error never holds a value of the body.
 */
export function parseIdentityBody(body: unknown): IdentityRecord {
  if (!isPlainObject(body)) throw new Error('unexpected customer-records body');
  const record: IdentityRecord = {};
  for (const name of IDENTITY_FIELDS) {
    const value = Object.hasOwn(body, name) ? body[name] : undefined;
    if (typeof value === 'string') record[name] = value;
  }
  if (typeof body.identityVerified === 'boolean') record.identityVerified = body.identityVerified;
  return record;
}

/**
 * Customer records over HTTP: GET {CRM_URL}/subscribers/{msisdn}/identity, behind its own
 * deadline and circuit breaker. Nothing is cached: the record is fetched for each request.
 */
export class CrmHttpClient implements CustomerRecords {
  readonly upstream: HttpUpstream<IdentityRecord>;

  constructor(opts: Omit<HttpUpstreamOptions<IdentityRecord>, 'name' | 'parse'>) {
    this.upstream = new HttpUpstream({ ...opts, name: 'crm', parse: parseIdentityBody });
  }

  identity(msisdn: string): Promise<IdentityRecord | null> {
    return this.upstream.get(`/subscribers/${encodeURIComponent(msisdn)}/identity`, msisdn);
  }
}
