import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeProtectedHeader } from 'jose';
import { UnauthenticatedError } from '../../src/errors/domain-errors';
import { Harness, startHarness } from '../support/harness';
import { fetchToken, generateSigningJwk, publicJwk, writeSigningKeyFile } from '../support/oauth';
import { startServiceProcess } from '../support/service-process';
import { DEMO } from '../support/signing';
import { until } from '../support/until';

const creds = { clientId: DEMO.apiKey, clientSecret: DEMO.secret };
const jwksOf = async (url: string) => ((await (await fetch(`${url}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string; alg: string; d?: string }> }).keys;

describe('signing key rotation (OAUTH_SIGNING_KEY_FILE)', () => {
  let dir: string;
  let keyFile: string;
  let h: Harness;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'vc-keys-'));
    keyFile = join(dir, 'keys.json');
  });
  afterEach(async () => {
    await h?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('when the keys are reloaded, then tokens of the previous key stay valid and new ones are signed with the new kid', async () => {
    const a = await generateSigningJwk('ES256', 'key-a');
    writeSigningKeyFile(keyFile, [a]);
    h = await startHarness({ env: { OAUTH_SIGNING_KEY_FILE: keyFile } });
    const before = await fetchToken(h.url, creds);
    expect(decodeProtectedHeader(before).kid).toBe('key-a');

    // Rotate: a new RS256 signing key first, the old one kept (public half only) to verify.
    const b = await generateSigningJwk('RS256', 'key-b');
    writeSigningKeyFile(keyFile, [b, publicJwk(a)]);
    await h.server.reloadSigningKeys();

    expect((await jwksOf(h.url)).map((k) => [k.kid, k.alg])).toEqual([['key-b', 'RS256'], ['key-a', 'ES256']]);
    const after = await fetchToken(h.url, creds);
    expect(decodeProtectedHeader(after)).toMatchObject({ kid: 'key-b', alg: 'RS256' });
    await expect(h.server.accessTokens.verify(before)).resolves.toMatchObject({ partner: { apiKey: DEMO.apiKey } });
    await expect(h.server.accessTokens.verify(after)).resolves.toMatchObject({ partner: { apiKey: DEMO.apiKey } });

    // Retire the old key: its tokens stop at once, even ones verified (and cached) before.
    writeSigningKeyFile(keyFile, [b]);
    await h.server.reloadSigningKeys();
    await expect(h.server.accessTokens.verify(before)).rejects.toBeInstanceOf(UnauthenticatedError);
    await expect(h.server.accessTokens.verify(after)).resolves.toBeDefined();
  });

  it('when the file turns bad on reload, then the keys in force are kept', async () => {
    writeSigningKeyFile(keyFile, [await generateSigningJwk('ES256', 'key-a')]);
    h = await startHarness({ env: { OAUTH_SIGNING_KEY_FILE: keyFile } });
    const token = await fetchToken(h.url, creds);
    writeFileSync(keyFile, '{"keys": [ {"kty": "oct", "k": "c2VjcmV0"} ]}');
    await h.server.reloadSigningKeys();
    await expect(h.server.accessTokens.verify(token)).resolves.toBeDefined();
    expect(decodeProtectedHeader(await fetchToken(h.url, creds)).kid).toBe('key-a');
  });

  it('when the file is PEM, then a private key signs (kid = its RFC 7638 thumbprint) and a public key after it verifies', async () => {
    const signing = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'pem', type: 'pkcs8' });
    const previous = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'pem', type: 'spki' });
    writeFileSync(keyFile.replace('.json', '.pem'), `${signing.toString()}${previous.toString()}`);
    h = await startHarness({ env: { OAUTH_SIGNING_KEY_FILE: keyFile.replace('.json', '.pem') } });
    const keys = await jwksOf(h.url);
    expect(keys.map((k) => k.alg)).toEqual(['ES256', 'RS256']);
    expect(keys.every((k) => k.d === undefined && /^[A-Za-z0-9_-]{43}$/.test(k.kid))).toBe(true);
    const token = await fetchToken(h.url, creds);
    expect(decodeProtectedHeader(token).kid).toBe(keys[0]?.kid);
    await expect(h.server.accessTokens.verify(token)).resolves.toBeDefined();
  });

  it('when the key file cannot be used, then the process refuses to start, naming the problem but no key material', async () => {
    const pub = publicJwk(await generateSigningJwk('ES256', 'pub-only'));
    writeSigningKeyFile(keyFile, [pub]);
    const started = await startServiceProcess({ OAUTH_SIGNING_KEY_FILE: keyFile }).then(
      async (svc) => { svc.proc.kill('SIGKILL'); await svc.exited; return 'started'; },
      (err: Error) => err.message,
    );
    expect(started).toMatch(/first key signs and must be a private key/);
    expect(started).not.toContain(pub.x);
  });
});

describe('SIGHUP reloads the signing keys of the running process', () => {
  it('when SIGHUP arrives, then the new kid is published and signs, and the old key stays published', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vc-keys-'));
    const keyFile = join(dir, 'keys.json');
    const a = await generateSigningJwk('ES256', 'proc-a');
    writeSigningKeyFile(keyFile, [a]);
    const svc = await startServiceProcess({ OAUTH_SIGNING_KEY_FILE: keyFile, LOG_LEVEL: 'info' });
    try {
      expect(decodeProtectedHeader(await fetchToken(svc.url, creds)).kid).toBe('proc-a');
      writeSigningKeyFile(keyFile, [await generateSigningJwk('ES256', 'proc-b'), publicJwk(a)]);
      svc.proc.kill('SIGHUP');
      await until(() => svc.count(/signing keys reloaded/) > 0, 'the signing keys reloaded after SIGHUP', 10_000);
      expect((await jwksOf(svc.url)).map((k) => k.kid)).toEqual(['proc-b', 'proc-a']);
      expect(decodeProtectedHeader(await fetchToken(svc.url, creds)).kid).toBe('proc-b');
      expect(svc.output()).not.toContain(a.d);
    } finally {
      svc.proc.kill('SIGTERM');
      await svc.exited;
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
