import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCredentialCipher, loadCredentialKey } from '../../src/subscriptions/delivery/sink-credential-cipher';
import { SinkCredential } from '../../src/subscriptions/domain/subscription';

const TOKEN: SinkCredential = { credentialType: 'ACCESSTOKEN', accessToken: 'sink-token-visible', accessTokenExpiresUtc: '2099-01-01T00:00:00Z', accessTokenType: 'bearer' };

describe('sink credentials at rest', () => {
  test('when sealed, then the text holds no part of the credential and opens to it for the same subscription', () => {
    const cipher = createCredentialCipher(randomBytes(32));
    const sealed = cipher.seal(TOKEN, 'sub-1');
    expect(JSON.stringify(sealed)).not.toMatch(/sink-token|ACCESSTOKEN|2099/);
    expect(cipher.open(sealed, 'sub-1')).toEqual(TOKEN);
    expect(cipher.seal(sealed, 'sub-1')).toBe(sealed);
    expect(cipher.open(TOKEN, 'sub-1')).toBe(TOKEN);
  });

  test('when opened with another key, for another subscription, or altered, then it throws', () => {
    const cipher = createCredentialCipher(randomBytes(32));
    const sealed = cipher.seal(TOKEN, 'sub-1');
    expect(() => createCredentialCipher(randomBytes(32)).open(sealed, 'sub-1')).toThrow();
    expect(() => cipher.open(sealed, 'sub-2')).toThrow();
    const parts = sealed.sealed.split('.');
    parts[3] = Buffer.from('tampered').toString('base64url');
    expect(() => cipher.open({ credentialType: 'SEALED', sealed: parts.join('.') }, 'sub-1')).toThrow();
    expect(() => cipher.open({ credentialType: 'SEALED', sealed: 'v9.a.b.c' }, 'sub-1')).toThrow();
  });

  test('when the key file holds 64 hex digits or base64 of 32 bytes, then that key is used; anything else names the setting', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vc-key-'));
    try {
      const key = randomBytes(32);
      for (const text of [key.toString('hex'), `${key.toString('base64')}\n`]) {
        writeFileSync(join(dir, 'k'), text);
        expect(loadCredentialKey(join(dir, 'k')).equals(key)).toBe(true);
      }
      for (const text of ['short', randomBytes(16).toString('hex'), randomBytes(31).toString('base64')]) {
        writeFileSync(join(dir, 'k'), text);
        expect(() => loadCredentialKey(join(dir, 'k'))).toThrow(/SINK_CREDENTIALS_KEY_FILE/);
      }
      expect(() => loadCredentialKey(join(dir, 'missing'))).toThrow(/SINK_CREDENTIALS_KEY_FILE: cannot read/);
      expect(loadCredentialKey(undefined)).toHaveLength(32);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
