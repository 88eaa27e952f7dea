import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SealedCredential, SinkCredential } from '../domain/subscription';

/*
 * Sink credentials at rest (the Redis subscription record, every queued delivery and so every
 * dead letter) are AES-256-GCM ciphertext under an operator key, bound to their subscription
 * id. node:crypto does the cryptography; this file only frames it (version.iv.tag.data).
 */

const VERSION = 'v1';
const KEY_BYTES = 32;

export interface CredentialCipher {
  /** The credential encrypted for subscriptionId; a sealed one is returned as it is. */
  seal(c: SinkCredential, subscriptionId: string): SealedCredential;
  /** The plain credential; throws when it was sealed under another key or for another subscription. */
  open(c: SinkCredential, subscriptionId: string): SinkCredential;
}

export function createCredentialCipher(key: Buffer): CredentialCipher {
  if (key.length !== KEY_BYTES) throw new Error(`a sink credential key is ${KEY_BYTES} bytes`);
  return {
    seal(c, subscriptionId) {
      if (c.credentialType === 'SEALED') return c;
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(subscriptionId));
      const data = Buffer.concat([cipher.update(JSON.stringify(c), 'utf8'), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'));
      return { credentialType: 'SEALED', sealed: `${VERSION}.${parts.join('.')}` };
    },
    open(c, subscriptionId) {
      if (c.credentialType !== 'SEALED') return c;
      const [version, iv, tag, data] = c.sealed.split('.');
      if (version !== VERSION || data === undefined) throw new Error('unknown sealed credential format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(subscriptionId));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      const plain = Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
      return JSON.parse(plain) as SinkCredential;
    },
  };
}

/**
 * SINK_CREDENTIALS_KEY_FILE's key: 32 bytes written as base64 (44 characters) or 64 hex digits,
 * surrounding whitespace ignored. Unset: a key for this process only. Errors name the setting.
 */
export function loadCredentialKey(file: string | undefined): Buffer {
  if (!file) return randomBytes(KEY_BYTES);
  let text: string;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (err) {
    throw new Error(`SINK_CREDENTIALS_KEY_FILE: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? 'error'})`, { cause: err });
  }
  const key = /^[0-9a-fA-F]{64}$/.test(text) ? Buffer.from(text, 'hex')
    : /^[A-Za-z0-9+/]{43}=$/.test(text) ? Buffer.from(text, 'base64') : undefined;
  if (!key || key.length !== KEY_BYTES) throw new Error('SINK_CREDENTIALS_KEY_FILE: must hold a 32-byte key as 64 hex digits or base64 (e.g. openssl rand -base64 32)');
  return key;
}
