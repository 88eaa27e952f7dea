import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

const KEY_BYTES = 32;

/**
 * KYC_MATCH_KEY_FILE's key: 32 bytes written as base64 (44 characters) or 64 hex digits,
 * surrounding whitespace ignored (e.g. `openssl rand -base64 32`). Unset: a key for this process
 * only. Errors name the setting and the file, never its content.
 */
export function loadAllowanceKey(file: string | undefined): Buffer {
  if (!file) return randomBytes(KEY_BYTES);
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
