import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

const KEY_BYTES = 32;

/**
 * The key of a shared store outside production when none is set: public, as the demo partners'
 * secrets are, so its HMACs are no better than plain digests; but every instance on one Redis
 * derives the same keys and the allowance stays fleet-wide. Production with Redis must set
 * KYC_MATCH_KEY_FILE (config rule).
 */
const DEVELOPMENT_KEY = createHash('sha256').update('verify-customer KYC Match allowance development key').digest();

/**
 * KYC_MATCH_KEY_FILE's key: 32 bytes written as base64 (44 characters) or 64 hex digits,
 * surrounding whitespace ignored (e.g. `openssl rand -base64 32`). Unset: a key generated for
 * this process (memory state: it is the only instance), or the public development key on a
 * shared store. Errors name the setting and the file, never its content.
 */
export function loadAllowanceKey(file: string | undefined, sharedStore: boolean): Buffer {
  if (!file) return sharedStore ? DEVELOPMENT_KEY : randomBytes(KEY_BYTES);
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new Error(`KYC_MATCH_KEY_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, { cause: err });
  }
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/]{43}=$/.test(text) ? Buffer.from(text, 'base64') : undefined;
  if (!key || key.length !== KEY_BYTES) throw new Error('KYC_MATCH_KEY_FILE: must hold a 32-byte key as 64 hex digits or base64 (e.g. openssl rand -base64 32)');
  return key;
}
