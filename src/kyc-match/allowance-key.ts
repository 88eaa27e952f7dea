import { createHash, randomBytes } from 'node:crypto';
import { KEY_BYTES, readKeyFile } from '../kernel/key-file';

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
  return readKeyFile('KYC_MATCH_KEY_FILE', file);
}
