import { CamaraHarness, CamaraReply } from './camara-harness';
import { CallForwardingService } from '../../src/simulator/subscriber';

/*
 * Shared by the signal APIs' tests (Device Swap, Call Forwarding Signal, Number Recycling): the
 * ErrorInfo and correlator checks, and subscribers with given facts in the harness's simulator.
 */

export function expectErrorInfo(r: CamaraReply, status: number, code: string): void {
  expect([r.status, r.body]).toEqual([status, { status, code, message: expect.any(String) as unknown }]);
  expect((r.body as { message: string }).message.length).toBeGreaterThan(10);
}

export function expectCorrelated(r: CamaraReply, correlator: string): void {
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(r.headers.get('x-correlator')).toBe(correlator);
}

export interface SignalFacts {
  activatedAt?: string | null;
  deviceFirstSeenAt?: string | null;
  deviceChangedAt?: string | null;
  callForwarding?: CallForwardingService[];
  paymentType?: 'prepaid' | 'postpaid' | 'business';
  status?: 'active' | 'inactive' | 'suspended' | 'terminated';
}

/** A fresh subscriber in the harness's simulator with these facts; its E.164 number (`+…`). */
export function subscriberWith(c: CamaraHarness, prefix: string, seq: number, facts: SignalFacts): string {
  const msisdn = `${prefix}${String(seq).padStart(4, '0')}`;
  c.h.sim.upsert({
    msisdn, status: facts.status ?? 'active', paymentType: facts.paymentType ?? 'prepaid', iccid: `89255000000${msisdn.slice(-8)}`,
    lastSimSwapAt: null, activatedAt: 'now-900d', ...facts,
  });
  return `+${msisdn}`;
}
