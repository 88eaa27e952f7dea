import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/*
 * Secrets at rest (partner secrets in PostgreSQL, sink credentials in Redis): AES-256-GCM under
 * an operator key, bound to what they belong to (the AAD), framed as version.iv.tag.data in
 * base64url. node:crypto does the cryptography; this file only frames it, once for both.
 */

const VERSION = 'v1';

export function sealText(key: Buffer, plain: string, aad: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(aad);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return [VERSION, ...[iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url'))].join('.');
}

/** The plain text; throws when sealed under another key, for another AAD, or in an unknown format (`what` names it). */
export function openText(key: Buffer, sealed: string, aad: Buffer, what: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || data === undefined) throw new Error(`unknown sealed ${what} format`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(aad);
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}
