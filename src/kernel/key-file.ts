import { readFileSync } from 'node:fs';

/** The operator's symmetric keys are 32 bytes (AES-256-GCM, HMAC-SHA256). */
export const KEY_BYTES = 32;

/**
 * A 32-byte key from the file a setting names, written as 64 hex digits or base64 (44
 * characters, e.g. `openssl rand -base64 32`), surrounding whitespace ignored. Errors name the
 * setting and the file, never the file's content.
 */
export function readKeyFile(setting: string, file: string): Buffer {
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new Error(`${setting}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, { cause: err });
  }
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/]{43}=$/.test(text) ? Buffer.from(text, 'base64') : undefined;
  if (!key || key.length !== KEY_BYTES) throw new Error(`${setting}: must hold a 32-byte key as 64 hex digits or base64 (e.g. openssl rand -base64 32)`);
  return key;
}
