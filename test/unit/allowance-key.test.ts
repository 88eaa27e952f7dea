import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadAllowanceKey } from '../../src/kyc-match/allowance-key';

describe('KYC_MATCH_KEY_FILE', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vc-km-key-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('when the file holds 32 bytes as base64 or hex, then that is the key; anything else stops the start naming the setting, never the content', () => {
    const key = Buffer.alloc(32, 9);
    writeFileSync(join(dir, 'b64'), `${key.toString('base64')}\n`);
    writeFileSync(join(dir, 'hex'), key.toString('hex'));
    writeFileSync(join(dir, 'short'), 'c2VjcmV0LXZhbHVl');
    expect(loadAllowanceKey(join(dir, 'b64'), true)).toEqual(key);
    expect(loadAllowanceKey(join(dir, 'hex'), true)).toEqual(key);
    expect(() => loadAllowanceKey(join(dir, 'short'), true)).toThrow(/^KYC_MATCH_KEY_FILE: must hold a 32-byte key/);
    expect(() => loadAllowanceKey(join(dir, 'short'), true)).not.toThrow(/c2VjcmV0/);
    expect(() => loadAllowanceKey(join(dir, 'missing'), true)).toThrow(/KYC_MATCH_KEY_FILE: cannot read/);
  });

  it('when unset, then memory state gets a fresh key each start, a shared store the one development key every instance derives', () => {
    expect(loadAllowanceKey(undefined, false)).not.toEqual(loadAllowanceKey(undefined, false));
    expect(loadAllowanceKey(undefined, true)).toEqual(loadAllowanceKey(undefined, true));
    expect(loadAllowanceKey(undefined, true)).toHaveLength(32);
  });
});
