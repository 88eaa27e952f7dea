import { parseHlrBody } from '../../src/adapters/upstream/hlr-http-client';
import { parseSimBody } from '../../src/adapters/upstream/sim-http-client';

describe('upstream body parsing: anything off-contract is a fault, never a fact', () => {
  it('reads an HLR record', () => {
    expect(parseHlrBody({ msisdn: '255712000001', status: 'suspended', paymentType: 'postpaid' })).toEqual({ status: 'suspended', paymentType: 'postpaid' });
  });

  it.each([null, 'text', {}, { status: 'ACTIVE', paymentType: 'prepaid' }, { status: 'active', paymentType: 'credit' }])('rejects the HLR body %p', (b) => {
    expect(() => parseHlrBody(b)).toThrow();
  });

  it('reads SIM records with a swap date in any offset, or null', () => {
    expect(parseSimBody({ lastSimSwapAt: '2026-11-20T11:15:00+03:00' })).toEqual({ lastSimSwapAtMs: Date.parse('2026-11-20T08:15:00Z') });
    expect(parseSimBody({ lastSimSwapAt: null })).toEqual({ lastSimSwapAtMs: null });
  });

  it.each([null, {}, { lastSimSwapAt: 'yesterday' }, { lastSimSwapAt: 12 }, { lastSimSwapAt: '2026-11-20' }])('rejects the SIM body %p', (b) => {
    expect(() => parseSimBody(b)).toThrow();
  });
});
