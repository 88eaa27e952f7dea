import { decodeHlr, decodeSim, encodeHlr, encodeSim } from '../../src/verification/fact-codec';
import { HlrRecord, SimRecord } from '../../src/verification/ports/upstreams';

describe('cache codec for upstream facts', () => {
  it.each<HlrRecord | null>([
    null,
    { status: 'active', paymentType: 'prepaid', activatedAtMs: 1_600_000_000_000 },
    { status: 'terminated', paymentType: 'business', activatedAtMs: null },
    { status: 'suspended', paymentType: 'postpaid', activatedAtMs: -86_400_000 },
    {
      status: 'active', paymentType: 'postpaid', activatedAtMs: 1_600_000_000_000,
      deviceFirstSeenAtMs: 1_600_000_100_000, deviceChangedAtMs: null, callForwarding: [],
    },
    {
      status: 'active', paymentType: 'prepaid', activatedAtMs: null,
      deviceFirstSeenAtMs: null, deviceChangedAtMs: null, callForwarding: null,
    },
    {
      status: 'active', paymentType: 'business', activatedAtMs: 1,
      deviceFirstSeenAtMs: 2, deviceChangedAtMs: 3, callForwarding: ['unconditional', 'conditional_busy', 'conditional_not_reachable', 'conditional_no_answer'],
    },
    { status: 'active', paymentType: 'prepaid', activatedAtMs: 1, deviceFirstSeenAtMs: 2, deviceChangedAtMs: 3, callForwarding: ['conditional_no_answer'] },
  ])('round-trips the HLR record %p', (rec) => {
    expect(decodeHlr(encodeHlr(rec))).toEqual(rec);
  });

  it.each<SimRecord | null>([
    null,
    { lastSimSwapAtMs: null, simActivatedAtMs: null },
    { lastSimSwapAtMs: 1_700_000_000_000, simActivatedAtMs: 1_700_000_000_000 },
    { lastSimSwapAtMs: null, simActivatedAtMs: 1_500_000_000_000 },
  ])('round-trips the SIM record %p', (rec) => {
    expect(decodeSim(encodeSim(rec))).toEqual(rec);
  });

  it('when the HLR knows contentLock or parentalControl, then they survive the cache; unknown ones stay absent, and a bad lock segment is a miss', () => {
    const base: HlrRecord = { status: 'active', paymentType: 'prepaid', activatedAtMs: 1, deviceFirstSeenAtMs: 2, deviceChangedAtMs: null, callForwarding: [] };
    for (const rec of [{ ...base, contentLock: true, parentalControl: false }, { ...base, parentalControl: true }, base]) {
      expect(decodeHlr(encodeHlr(rec))).toEqual(rec);
    }
    expect(encodeHlr(base)).toBe('active/prepaid/1/2/n/0');
    expect(encodeHlr({ ...base, contentLock: true, parentalControl: false })).toBe('active/prepaid/1/2/n/0/tf');
    expect(decodeHlr('active/prepaid/1/2/n/0/tx')).toBeUndefined();
    expect(decodeHlr('active/prepaid/1/2/n/0/t')).toBeUndefined();
  });

  it('when an entry was cached before the tenure fields existed, then it still decodes, without them (so CAMARA refetches)', () => {
    expect(decodeHlr('active/prepaid')).toEqual({ status: 'active', paymentType: 'prepaid' });
    expect(decodeHlr('active/prepaid')).not.toHaveProperty('activatedAtMs');
    expect(decodeSim('n')).toEqual({ lastSimSwapAtMs: null });
    expect(decodeSim('1700000000000')).toEqual({ lastSimSwapAtMs: 1_700_000_000_000 });
    expect(decodeSim('1700000000000')).not.toHaveProperty('simActivatedAtMs');
  });

  it('when an entry was cached before the device and forwarding fields existed, then it decodes without them (so the signal APIs refetch)', () => {
    const rec = decodeHlr('active/prepaid/1600000000000');
    expect(rec).toEqual({ status: 'active', paymentType: 'prepaid', activatedAtMs: 1_600_000_000_000 });
    expect(rec).not.toHaveProperty('deviceFirstSeenAtMs');
    expect(rec).not.toHaveProperty('callForwarding');
  });

  it.each(['active/prepaid/n/n/n', 'active/prepaid/n/n/n/x', 'active/prepaid/n/n/n/uu', 'active/prepaid/n/n/n/bu', 'active/prepaid/n/x/n/0',
    'active/prepaid/n/n/n/0/0', 'active/prepaid/n/n/n/'])('when the HLR value is %p, then it is a miss', (v) => {
    expect(decodeHlr(v)).toBeUndefined();
  });

  it.each(['', 'active', 'active/credit', 'active/prepaid/x', 'active/prepaid/1/2', 'ACTIVE/prepaid/n'])('when the cached HLR value is %p, then it is a miss', (v) => {
    expect(decodeHlr(v)).toBeUndefined();
  });

  it.each(['', 'x', 'n/x', 'n/n/n', '1.5', 'yesterday/n'])('when the cached SIM value is %p, then it is a miss', (v) => {
    expect(decodeSim(v)).toBeUndefined();
  });
});
