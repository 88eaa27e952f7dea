import { Authenticator } from '../../src/partners/authenticator';
import { UnauthenticatedError } from '../../src/errors/domain-errors';
import { noopMetrics } from '../../src/verification/ports/metrics';
import { Partner } from '../../src/partners/partners';
import { md5Hex } from '../../src/partners/signature';
import { SignatureWindow } from '../../src/partners/signature-window';
import { hmacSig, md5Sig } from '../support/signing';

const partner = (over: Partial<Partner> = {}): Partner => ({
  name: 'bank', apiKey: 'key1', secret: 's3cret', operations: new Set(['kyc']), enabled: true, signature: 'md5', ...over,
});

function setup(partners: Partner[], nowMs = 1_800_000_000_000) {
  const clock = { t: nowMs, nowMs() { return this.t; } };
  const failures: string[] = [];
  const auth = new Authenticator({
    registry: { find: (k) => partners.find((p) => p.apiKey === k), all: () => partners },
    clock, maxSkewS: 300, metrics: { ...noopMetrics, authFailure: (r) => failures.push(r) },
  });
  return { auth, clock, failures };
}

describe('Authenticator', () => {
  const p = partner();
  const nowS = 1_800_000_000;

  it('when the signature is md5(api_key + secret + timestamp), then it is accepted with the timestamp in seconds or milliseconds', () => {
    const { auth } = setup([p]);
    expect(auth.authenticate({ apiKey: 'key1', timestamp: String(nowS), sig: md5Sig('key1', 's3cret', String(nowS)) })).toBe(p);
    const ms = String(nowS * 1000 + 5);
    expect(auth.authenticate({ apiKey: 'key1', timestamp: ms, sig: md5Sig('key1', 's3cret', ms) })).toBe(p);
  });

  it('when the timestamp is outside the window, then it is refused before the key is looked at, and why is counted', () => {
    const { auth, failures } = setup([p]);
    const ts = String(nowS - 301);
    expect(() => auth.authenticate({ apiKey: 'nobody', timestamp: ts, sig: md5Sig('key1', 's3cret', ts) })).toThrow('timestamp outside');
    expect(failures).toEqual(['stale_timestamp']);
  });

  it('when the key is unknown or disabled or the signature wrong, then the reason given is the same', () => {
    const { auth } = setup([p, partner({ apiKey: 'off', enabled: false })]);
    const ts = String(nowS);
    const reasons = [
      { apiKey: 'nobody', timestamp: ts, sig: md5Sig('nobody', 'x', ts) },
      { apiKey: 'off', timestamp: ts, sig: md5Sig('off', 's3cret', ts) },
      { apiKey: 'key1', timestamp: ts, sig: md5Sig('key1', 'wrong', ts) },
    ].map((c) => { try { auth.authenticate(c); return 'accepted'; } catch (e) { return (e as UnauthenticatedError).desc; } });
    expect(new Set(reasons)).toEqual(new Set(['Error Process: authentication failed']));
  });

  it('when the timestamp is omitted, then any second of the window is accepted and one just outside is refused', () => {
    const { auth } = setup([p]);
    for (const t of [nowS - 300, nowS, nowS + 300]) {
      expect(auth.authenticate({ apiKey: 'key1', sig: md5Sig('key1', 's3cret', String(t)) })).toBe(p);
    }
    for (const t of [nowS - 301, nowS + 301]) {
      expect(() => auth.authenticate({ apiKey: 'key1', sig: md5Sig('key1', 's3cret', String(t)) })).toThrow(UnauthenticatedError);
    }
  });

  it('when the clock moves, then the omitted-timestamp window slides with it', () => {
    const { auth, clock } = setup([p]);
    const old = md5Sig('key1', 's3cret', String(nowS - 200));
    expect(auth.authenticate({ apiKey: 'key1', sig: old })).toBe(p);
    clock.t += 150_000;
    expect(() => auth.authenticate({ apiKey: 'key1', sig: old })).toThrow(UnauthenticatedError);
    const newer = md5Sig('key1', 's3cret', String(nowS + 440));
    expect(auth.authenticate({ apiKey: 'key1', sig: newer })).toBe(p);
  });

  it('when a partner uses hmac-sha256, then it is accepted only with a timestamp and its own scheme', () => {
    const h = partner({ apiKey: 'hk', secret: 'hs', signature: 'hmac-sha256' });
    const { auth } = setup([h]);
    const ts = String(nowS);
    expect(auth.authenticate({ apiKey: 'hk', timestamp: ts, sig: hmacSig('hk', 'hs', ts) })).toBe(h);
    expect(() => auth.authenticate({ apiKey: 'hk', timestamp: ts, sig: md5Sig('hk', 'hs', ts) })).toThrow(UnauthenticatedError);
    expect(() => auth.authenticate({ apiKey: 'hk', sig: hmacSig('hk', 'hs', ts) })).toThrow(UnauthenticatedError);
  });

  it.each([undefined, '', 'zz', 'a'.repeat(129)])('when the signature is %p, then it is refused', (sig) => {
    const { auth } = setup([p]);
    expect(() => auth.authenticate({ apiKey: 'key1', timestamp: String(nowS), sig })).toThrow(UnauthenticatedError);
  });
});

describe('SignatureWindow', () => {
  it('when the clock moves however far, then exactly 2*skew+1 signatures are held', () => {
    const w = new SignatureWindow('k' + 's', 5);
    w.advanceTo(1000);
    w.advanceTo(1003);
    w.advanceTo(5000);
    const inside = [4995, 5000, 5005].map((t) => w.timestampOf(md5Hex(`ks${t}`), 5000));
    expect(inside).toEqual([4995, 5000, 5005]);
    expect(w.timestampOf(md5Hex('ks4994'), 5000)).toBeUndefined();
    expect(w.timestampOf(md5Hex('ks1000'), 5000)).toBeUndefined();
    expect((w as unknown as { bySig: Map<string, number> }).bySig.size).toBe(11);
  });
});

describe('Authenticator with a rotation under way (CONTRACT §12)', () => {
  const nowS = 1_800_000_000;
  const rotating = partner({
    secret: 'new-secret',
    secrets: [
      { id: 'b', secret: 'new-secret', createdAtMs: nowS * 1000, validUntilMs: null },
      { id: 'a', secret: 'old-secret', createdAtMs: 0, validUntilMs: nowS * 1000 + 10_000 },
    ],
  });
  const omitted = (secret: string, t: number) => ({ apiKey: 'key1', sig: md5Hex(`key1${secret}${t}`) });

  it('when either valid secret signs, with or without a timestamp, then it is accepted; past the old one\'s validUntil, only the new one', () => {
    const { auth, clock } = setup([rotating], nowS * 1000);
    auth.tick();
    for (const s of ['new-secret', 'old-secret']) {
      expect(auth.authenticate({ apiKey: 'key1', timestamp: String(nowS), sig: md5Sig('key1', s, String(nowS)) })).toBe(rotating);
      expect(auth.authenticate(omitted(s, nowS))).toBe(rotating);
    }
    clock.t = nowS * 1000 + 10_000;
    auth.tick();
    const t = nowS + 10;
    expect(auth.authenticate(omitted('new-secret', t))).toBe(rotating);
    expect(() => auth.authenticate(omitted('old-secret', t))).toThrow(UnauthenticatedError);
    expect(() => auth.authenticate({ apiKey: 'key1', timestamp: String(t), sig: md5Sig('key1', 'old-secret', String(t)) })).toThrow(UnauthenticatedError);
  });

  it('when a secret stops being valid, then the next tick forgets its window and the still-valid secret keeps its own (no rebuild)', () => {
    const { auth, clock } = setup([rotating], nowS * 1000);
    auth.tick();
    const windows = (auth as unknown as { windows: Map<string, SignatureWindow> }).windows;
    expect([...windows.keys()].sort()).toEqual(['key1new-secret', 'key1old-secret']);
    const kept = windows.get('key1new-secret');
    clock.t = nowS * 1000 + 10_000;
    auth.tick();
    const after = (auth as unknown as { windows: Map<string, SignatureWindow> }).windows;
    expect([...after.keys()]).toEqual(['key1new-secret']);
    expect(after.get('key1new-secret')).toBe(kept);
  });
});
