import { CallForwardingUnknownError, NotSubscriberError } from '../../src/errors/domain-errors';
import { NeverInDeviceError } from '../../src/device-swap/device-swap-errors';
import { latestDeviceChange } from '../../src/device-swap/device-swap-service';
import { SubscriberStartUnknownError } from '../../src/number-recycling/number-recycling-errors';
import { recycledSince } from '../../src/number-recycling/number-recycling-service';
import { HlrRecord } from '../../src/verification/ports/upstreams';
import { activeForwardings, kycFlags, latestSimChangeOf } from '../../src/verification/subscriber-facts';

/* The rules of CONTRACT §11 on HLR records, without transport or upstreams. */

const rec = (fields: Partial<HlrRecord>): HlrRecord => ({
  status: 'active', paymentType: 'prepaid', activatedAtMs: 1000, deviceFirstSeenAtMs: null, deviceChangedAtMs: null, callForwarding: [], ...fields,
});

describe('Device Swap: the latest device change', () => {
  it('when the device changed, then that date; else the first use in a device', () => {
    expect(latestDeviceChange(rec({ deviceFirstSeenAtMs: 10, deviceChangedAtMs: 20 }))).toBe(20);
    expect(latestDeviceChange(rec({ deviceFirstSeenAtMs: 10, deviceChangedAtMs: null }))).toBe(10);
  });

  it('when the number was never in a device (or the HLR does not say), then NeverInDeviceError; not a subscriber, 404', () => {
    expect(() => latestDeviceChange(rec({}))).toThrow(NeverInDeviceError);
    expect(() => latestDeviceChange(rec({ deviceFirstSeenAtMs: undefined, deviceChangedAtMs: undefined }))).toThrow(NeverInDeviceError);
    expect(() => latestDeviceChange(null)).toThrow(NotSubscriberError);
    expect(() => latestDeviceChange(rec({ status: 'terminated', deviceFirstSeenAtMs: 10 }))).toThrow(NotSubscriberError);
  });
});

describe('Call Forwarding Signal: the active services', () => {
  it('when the HLR reports forwarding, then those services (none is an empty list); unknown is CallForwardingUnknownError', () => {
    expect(activeForwardings(rec({ callForwarding: ['unconditional'] }))).toEqual(['unconditional']);
    expect(activeForwardings(rec({ callForwarding: [] }))).toEqual([]);
    expect(() => activeForwardings(rec({ callForwarding: null }))).toThrow(CallForwardingUnknownError);
    expect(() => activeForwardings(null)).toThrow(NotSubscriberError);
  });
});

describe('Number Recycling: did the subscriber change since the start of the day', () => {
  it('when the subscriber began after the start of the day, then recycled; at or before it, not', () => {
    expect(recycledSince(rec({ activatedAtMs: 1001 }), 1000)).toBe(true);
    expect(recycledSince(rec({ activatedAtMs: 1000 }), 1000)).toBe(false);
    expect(recycledSince(rec({ activatedAtMs: 999 }), 1000)).toBe(false);
  });

  it('when the start is unknown, then SubscriberStartUnknownError, never a guess', () => {
    expect(() => recycledSince(rec({ activatedAtMs: null }), 1000)).toThrow(SubscriberStartUnknownError);
    expect(() => recycledSince(rec({ activatedAtMs: undefined }), 1000)).toThrow(SubscriberStartUnknownError);
    expect(() => recycledSince(null, 1000)).toThrow(NotSubscriberError);
  });
});

describe('the one subscriber rule (verification/subscriber-facts.ts)', () => {
  it('when the HLR says terminated, then KYC is not valid and there is no SIM change to tell, whatever SIM management keeps', () => {
    const terminated = rec({ status: 'terminated' });
    expect(kycFlags(terminated)).toEqual({ isValid: false, isActive: false, isPrepaid: false });
    expect(kycFlags(null)).toEqual({ isValid: false, isActive: false, isPrepaid: false });
    expect(kycFlags(rec({ status: 'suspended', paymentType: 'prepaid' }))).toEqual({ isValid: true, isActive: false, isPrepaid: true });
    expect(() => latestSimChangeOf(terminated, { lastSimSwapAtMs: 5 })).toThrow(NotSubscriberError);
    expect(() => latestSimChangeOf(rec({}), null)).toThrow(NotSubscriberError);
    expect(latestSimChangeOf(rec({}), { lastSimSwapAtMs: null, simActivatedAtMs: 7 })).toBe(7);
  });
});
