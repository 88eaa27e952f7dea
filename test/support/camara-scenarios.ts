import { readFileSync } from 'node:fs';
import { CamaraHarness, CamaraReply } from './camara-harness';
import { camaraFile } from './camara-spec';
import { CallForwardingService } from '../../src/simulator/subscriber';

/*
 * Shared by the conformance suites of the signal APIs: every scenario tag of their official
 * .feature files (read from ../shared/camara at run time) is one test named after it, and an
 * inventory test fails when a feature file has a tag the suite does not test.
 */

/** Every `@tag` of the named feature files, in file order. */
export function featureTags(files: readonly string[]): string[] {
  return files.flatMap((f) => [...readFileSync(camaraFile(f), 'utf8').matchAll(/^\s*@(\S+)\s*$/gm)].map((m) => m[1]));
}

/** Registers tests named exactly after scenario tags, and remembers which tags were tested. */
export function scenarioRegistry(): { scenario: (tag: string, fn: () => Promise<void>) => void; tested: Set<string> } {
  const tested = new Set<string>();
  return {
    tested,
    scenario: (tag, fn) => {
      tested.add(tag);
      it(tag, fn);
    },
  };
}

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
