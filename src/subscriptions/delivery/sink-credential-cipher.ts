import { randomBytes } from 'node:crypto';
import { KEY_BYTES, readKeyFile } from '../../kernel/key-file';
import { openText, sealText } from '../../kernel/sealed-box';
import { SealedCredential, SinkCredential } from '../domain/subscription';

/*
 * Sink credentials at rest (the Redis subscription record, every queued delivery and so every
 * dead letter) are AES-256-GCM ciphertext under an operator key, bound to their subscription
 * id (kernel/sealed-box.ts frames the ciphertext).
 */

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
      return { credentialType: 'SEALED', sealed: sealText(key, JSON.stringify(c), Buffer.from(subscriptionId)) };
    },
    open(c, subscriptionId) {
      if (c.credentialType !== 'SEALED') return c;
      return JSON.parse(openText(key, c.sealed, Buffer.from(subscriptionId), 'credential')) as SinkCredential;
    },
  };
}

/**
 * SINK_CREDENTIALS_KEY_FILE's key: 32 bytes written as base64 (44 characters) or 64 hex digits,
 * surrounding whitespace ignored. Unset: a key for this process only. Errors name the setting.
 */
export function loadCredentialKey(file: string | undefined): Buffer {
  return file ? readKeyFile('SINK_CREDENTIALS_KEY_FILE', file) : randomBytes(KEY_BYTES);
}
