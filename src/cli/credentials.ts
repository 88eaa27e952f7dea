import { SignatureScheme } from '../partners/partners';
import { signatureFor } from '../partners/signature';
import { UsageError } from './args';
import { CliIo } from './io';

export interface CliCredentials {
  apiKey: string;
  secret: string;
  scheme: SignatureScheme;
}

/** The options every signing command takes. */
export const CREDENTIAL_OPTIONS = {
  key: { type: 'string' },
  secret: { type: 'string' },
  hmac: { type: 'boolean' },
} as const;

export interface CredentialValues {
  key?: string;
  secret?: string;
  hmac?: boolean;
}

/** --key/--secret, else VC_API_KEY/VC_SECRET, else the demo partner (so the demo just works). */
export function credentialsFrom(values: CredentialValues, io: CliIo): CliCredentials {
  const apiKey = values.key ?? io.env.VC_API_KEY ?? 'demo-key';
  const secret = values.secret ?? io.env.VC_SECRET ?? (apiKey === 'demo-key' ? 'demo-secret' : undefined);
  if (!apiKey || !secret) throw new UsageError('give --key and --secret (or VC_API_KEY and VC_SECRET)');
  return { apiKey, secret, scheme: values.hmac ? 'hmac-sha256' : 'md5' };
}

/** The signed query string CONTRACT §1.5 expects. */
export function signedQuery(c: CliCredentials, timestamp: string = String(Math.floor(Date.now() / 1000))): string {
  const q = new URLSearchParams({ api_key: c.apiKey, timestamp, sig: signatureFor(c.scheme, c.apiKey, c.secret, timestamp) });
  return q.toString();
}
