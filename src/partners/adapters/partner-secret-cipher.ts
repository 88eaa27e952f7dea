import { createHash } from 'node:crypto';
import { KEY_BYTES, readKeyFile } from '../../kernel/key-file';
import { openText, sealText } from '../../kernel/sealed-box';

/*
 * Partner secrets at rest in PostgreSQL (CONTRACT §12): AES-256-GCM under the operator's key,
 * bound to their partner and secret id (the AAD), framed as version.iv.tag.data. The legacy
 * signature needs the secret itself, so a hash would not do (kernel/sealed-box.ts frames it).
 */

export interface PartnerSecretCipher {
  seal(secret: string, partner: string, secretId: string): string;
  /** Throws when sealed under another key, or for another partner or id. */
  open(sealed: string, partner: string, secretId: string): string;
}

const aad = (partner: string, secretId: string) => Buffer.from(`${partner}\0${secretId}`, 'utf8');

export function createPartnerSecretCipher(key: Buffer): PartnerSecretCipher {
  if (key.length !== KEY_BYTES) throw new Error(`a partner secrets key is ${KEY_BYTES} bytes`);
  return {
    seal: (secret, partner, secretId) => sealText(key, secret, aad(partner, secretId)),
    open: (sealed, partner, secretId) => openText(key, sealed, aad(partner, secretId), 'secret'),
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
  return file ? readKeyFile('PARTNER_SECRETS_KEY_FILE', file) : DEVELOPMENT_KEY;
}
