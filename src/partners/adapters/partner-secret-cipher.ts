import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';

/*
 * Partner secrets at rest in PostgreSQL (CONTRACT §12): AES-256-GCM under the operator's key,
 * bound to their partner and secret id (the AAD), framed as version.iv.tag.data. The legacy
 * signature needs the secret itself, so a hash would not do. node:crypto does the cryptography.
 */

const VERSION = 'v1';
const KEY_BYTES = 32;

export interface PartnerSecretCipher {
  seal(secret: string, partner: string, secretId: string): string;
  /** Throws when sealed under another key, or for another partner or id. */
  open(sealed: string, partner: string, secretId: string): string;
}

const aad = (partner: string, secretId: string) => Buffer.from(`${partner}\0${secretId}`, 'utf8');

export function createPartnerSecretCipher(key: Buffer): PartnerSecretCipher {
  if (key.length !== KEY_BYTES) throw new Error(`a partner secrets key is ${KEY_BYTES} bytes`);
  return {
    seal(secret, partner, secretId) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(aad(partner, secretId));
      const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
      return [VERSION, ...[iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'))].join('.');
    },
    open(sealed, partner, secretId) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== VERSION || data === undefined) throw new Error('unknown sealed secret format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(aad(partner, secretId));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/**
 * Outside production without PARTNER_SECRETS_KEY_FILE: a development key every instance derives
 * alike (so a local fleet, and a restart, can read what another wrote), warned about at start.
 * It is public: production refuses to start without a key file (src/config/partner-settings.ts).
 */
export const DEVELOPMENT_KEY = createHash('sha256').update('verify-customer development partner secrets key (public)').digest();

/** PARTNER_SECRETS_KEY_FILE's key: 32 bytes as 64 hex digits or base64, surrounding whitespace ignored. Errors name the setting. */
export function loadPartnerSecretsKey(file: string | undefined): Buffer {
  if (!file) return DEVELOPMENT_KEY;
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new Error(`PARTNER_SECRETS_KEY_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, { cause: err });
  }
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/]{43}=$/.test(text) ? Buffer.from(text, 'base64') : undefined;
  if (!key || key.length !== KEY_BYTES) throw new Error('PARTNER_SECRETS_KEY_FILE: must hold a 32-byte key as 64 hex digits or base64 (e.g. openssl rand -base64 32)');
  return key;
}
