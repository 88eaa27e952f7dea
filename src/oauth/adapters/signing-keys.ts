import { KeyObject, createPrivateKey, createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { CryptoKey, JSONWebKeySet, JWK, JWTVerifyGetKey, calculateJwkThumbprint, createLocalJWKSet, importJWK } from 'jose';
import { isPlainObject } from '../../kernel/plain-object';

/** The algorithms the service signs and accepts (CONTRACT §7): never HMAC, never `none`. */
export const SIGNING_ALGORITHMS = ['ES256', 'RS256'] as const;
export type SigningAlgorithm = (typeof SIGNING_ALGORITHMS)[number];

/**
 * The built-in issuer's keys, imported once: the signing key, and every key (signing and
 * previous ones) as a public JWKS and as a jose key set that verification reuses.
 */
export interface KeyRing {
  signing: { kid: string; alg: SigningAlgorithm; key: CryptoKey };
  /** Public keys as served at /.well-known/jwks.json; each carries its kid and pinned alg. */
  jwks: JSONWebKeySet;
  /** Selects a verification key by kid and alg; a key never verifies under another alg. */
  verifyKey: JWTVerifyGetKey;
}

const RSA_MIN_BITS = 2048;
const PEM_BLOCK = /-----BEGIN ([A-Z ]+)-----[\s\S]+?-----END \1-----/g;

/**
 * Reads OAUTH_SIGNING_KEY_FILE. Either a JWKS (`{"keys":[...]}`) or one JWK, or one or more PEM
 * blocks. The first key signs and must be private; the others (private or public) are previous
 * keys that still verify tokens signed before a rotation. Errors never quote key material.
 */
export async function loadKeyRingFile(path: string): Promise<KeyRing> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`signing key file ${path} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`, { cause: err });
  }
  const where = `signing key file ${path}`;
  const keys = text.trimStart().startsWith('{') ? keysFromJwkText(text, where) : keysFromPem(text, where);
  if (keys.length === 0) throw new Error(`${where} holds no key`);
  return buildKeyRing(keys, where);
}

/** A fresh ES256 key for a process without OAUTH_SIGNING_KEY_FILE (tokens die with the process). */
export async function generateKeyRing(): Promise<KeyRing> {
  const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return buildKeyRing([{ key: privateKey }], 'generated key');
}

interface SourceKey {
  key: KeyObject;
  kid?: string;
  alg?: string;
}

function keysFromJwkText(text: string, where: string): SourceKey[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${where} is neither valid JSON nor PEM`);
  }
  const list = isPlainObject(json) && Array.isArray(json.keys) ? (json.keys as unknown[]) : [json];
  return list.map((jwk, i) => {
    if (!isPlainObject(jwk) || typeof jwk.kty !== 'string') throw new Error(`${where}: key ${i} is not a JWK`);
    let key: KeyObject;
    try {
      key = 'd' in jwk
        ? createPrivateKey({ key: jwk, format: 'jwk' })
        : createPublicKey({ key: jwk, format: 'jwk' });
    } catch {
      throw new Error(`${where}: key ${i} is not a usable EC or RSA JWK`);
    }
    const source: SourceKey = { key };
    if (jwk.kid !== undefined) {
      if (typeof jwk.kid !== 'string' || !/^[\x21-\x7e]{1,128}$/.test(jwk.kid)) throw new Error(`${where}: key ${i}: kid must be 1-128 printable characters`);
      source.kid = jwk.kid;
    }
    if (jwk.alg !== undefined) {
      if (typeof jwk.alg !== 'string') throw new Error(`${where}: key ${i}: alg must be a string`);
      source.alg = jwk.alg;
    }
    return source;
  });
}

function keysFromPem(text: string, where: string): SourceKey[] {
  const blocks = [...text.matchAll(PEM_BLOCK)];
  if (blocks.length === 0) throw new Error(`${where} is neither a JWK(S) nor PEM`);
  return blocks.map((m, i) => {
    const label = m[1] ?? '';
    try {
      return { key: label.includes('PRIVATE') ? createPrivateKey(m[0]) : createPublicKey(m[0]) };
    } catch {
      throw new Error(`${where}: PEM block ${i} (${label}) is not a usable key`);
    }
  });
}

/** The one algorithm a key may sign or verify with: ES256 for P-256, RS256 for RSA ≥ 2048 bits. */
function algorithmOf(key: KeyObject, declared: string | undefined, what: string): SigningAlgorithm {
  const details = key.asymmetricKeyDetails;
  let alg: SigningAlgorithm;
  if (key.asymmetricKeyType === 'ec' && details?.namedCurve === 'prime256v1') alg = 'ES256';
  else if (key.asymmetricKeyType === 'rsa' && (details?.modulusLength ?? 0) >= RSA_MIN_BITS) alg = 'RS256';
  else throw new Error(`${what}: only EC P-256 (ES256) and RSA of at least ${RSA_MIN_BITS} bits (RS256) are accepted`);
  if (declared !== undefined && declared !== alg) throw new Error(`${what}: alg ${declared} does not fit the key (expected ${alg})`);
  return alg;
}

async function buildKeyRing(keys: SourceKey[], where: string): Promise<KeyRing> {
  const publicJwks: JWK[] = [];
  let signing: KeyRing['signing'] | undefined;
  for (const [i, source] of keys.entries()) {
    const what = `${where}: key ${i}`;
    if (i === 0 && source.key.type !== 'private') throw new Error(`${what}: the first key signs and must be a private key`);
    const alg = algorithmOf(source.key, source.alg, what);
    const publicKey = source.key.type === 'private' ? createPublicKey(source.key) : source.key;
    const pub = publicKey.export({ format: 'jwk' }) as JWK;
    const kid = source.kid ?? await calculateJwkThumbprint(pub);
    if (publicJwks.some((k) => k.kid === kid)) throw new Error(`${what}: duplicate kid`);
    publicJwks.push({ ...pub, kid, alg, use: 'sig' });
    if (i === 0) {
      const privateJwk = source.key.export({ format: 'jwk' }) as JWK;
      signing = { kid, alg, key: await importJWK({ ...privateJwk, alg }, alg) as CryptoKey };
    }
  }
  const jwks: JSONWebKeySet = { keys: publicJwks };
  return { signing: signing!, jwks, verifyKey: createLocalJWKSet(jwks) };
}

