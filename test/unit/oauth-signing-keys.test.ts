import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadKeyRingFile } from '../../src/oauth/adapters/signing-keys';
import { generateSigningJwk, publicJwk } from '../support/oauth';

describe('OAUTH_SIGNING_KEY_FILE', () => {
  let dir: string;
  beforeAll(() => { dir = mkdtempSync(join(tmpdir(), 'vc-keyfile-')); });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let n = 0;
  const file = (content: string) => {
    const path = join(dir, `k${n++}`);
    writeFileSync(path, content);
    return path;
  };

  it('when the file holds one JWK instead of a JWKS, then it is taken, keeping its kid and alg', async () => {
    const jwk = await generateSigningJwk('RS256', 'only-one');
    const ring = await loadKeyRingFile(file(JSON.stringify(jwk)));
    expect(ring.signing).toMatchObject({ kid: 'only-one', alg: 'RS256' });
    expect(ring.jwks.keys).toEqual([{ ...publicJwk(jwk), alg: 'RS256', kid: 'only-one', use: 'sig' }]);
  });

  const p384 = () => generateKeyPairSync('ec', { namedCurve: 'P-384' }).privateKey.export({ format: 'jwk' });
  const rsa1024 = () => generateKeyPairSync('rsa', { modulusLength: 1024 }).privateKey.export({ format: 'jwk' });
  const bad: Array<[string, () => Promise<string>, RegExp]> = [
    ['not JSON nor PEM', async () => 'hello', /neither a JWK\(S\) nor PEM/],
    ['broken JSON', async () => '{"keys": [', /neither valid JSON nor PEM/],
    ['an empty JWKS', async () => '{"keys": []}', /holds no key/],
    ['an HMAC (oct) key', async () => '{"keys": [{"kty": "oct", "k": "c2VjcmV0c2VjcmV0"}]}', /not a usable EC or RSA JWK/],
    ['a P-384 key', async () => JSON.stringify({ keys: [p384()] }), /only EC P-256 \(ES256\) and RSA/],
    ['RSA under 2048 bits', async () => JSON.stringify({ keys: [rsa1024()] }), /at least 2048 bits/],
    ['a public first key', async () => JSON.stringify({ keys: [publicJwk(await generateSigningJwk())] }), /must be a private key/],
    ['an alg that does not fit the key', async () => JSON.stringify({ keys: [{ ...(await generateSigningJwk('ES256')), alg: 'RS256' }] }), /does not fit the key/],
    ['HS256 declared on an EC key', async () => JSON.stringify({ keys: [{ ...(await generateSigningJwk('ES256')), alg: 'HS256' }] }), /does not fit the key/],
    ['a duplicate kid', async () => JSON.stringify({ keys: [await generateSigningJwk('ES256', 'x'), await generateSigningJwk('ES256', 'x')] }), /duplicate kid/],
    ['a broken PEM block', async () => '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n', /PEM block 0 .* is not a usable key/],
  ];
  it.each(bad)('when the file holds %s, then it is refused with a message that quotes no key material', async (_name, make, message) => {
    const content = await make();
    const err = await loadKeyRingFile(file(content)).then(() => undefined, (e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect(err?.message).toMatch(message);
    for (const secret of content.match(/"d":"[^"]+"/g) ?? []) expect(err?.message).not.toContain(secret.slice(5, -1));
  });

  it('when the file is missing, then the error names it by its error code', async () => {
    await expect(loadKeyRingFile(join(dir, 'absent'))).rejects.toThrow(/cannot be read \(ENOENT\)/);
  });
});
