import { auditOperation, currentOperationName } from '../../src/audit/audit-operation';
import { OPERATIONS } from '../../src/partners/operation';

describe('audit operation names (docs/audit.md, "Operation names")', () => {
  it('when a legacy or GraphQL lookup is recorded, then its operation is the registry operation alone', () => {
    for (const op of OPERATIONS) expect(auditOperation(op)).toBe(op);
  });

  it('when a CAMARA call is recorded, then its operation is the registry operation, a dot, and the CAMARA operation', () => {
    expect([
      auditOperation('sim_swap', 'check'), auditOperation('sim_swap', 'retrieve-date'), auditOperation('kyc', 'check-tenure'),
      auditOperation('device_swap', 'check'), auditOperation('device_swap', 'retrieve-date'),
    ]).toEqual(['sim_swap.check', 'sim_swap.retrieve-date', 'kyc.check-tenure', 'device_swap.check', 'device_swap.retrieve-date']);
  });

  it.each([
    ['check', 'sim_swap.check'],
    ['retrieve-date', 'sim_swap.retrieve-date'],
    ['check-tenure', 'kyc.check-tenure'],
    ['kyc_match', 'kyc_match.match'],
    ['number_recycling', 'number_recycling.check'],
    // Both of their operations were written under the registry operation: which one is not known.
    ['device_swap', 'device_swap'],
    ['call_forwarding', 'call_forwarding'],
    // Today's names stay as they are.
    ['sim_swap.check', 'sim_swap.check'],
    ['call_forwarding.call-forwardings', 'call_forwarding.call-forwardings'],
  ])('when a CAMARA record stored as %s is read, then it reads as %s', (stored, current) => {
    expect(currentOperationName('camara', stored)).toBe(current);
  });

  it('when a legacy or GraphQL record is read, then its operation is never mapped, whatever it holds', () => {
    for (const iface of ['legacy', 'graphql'] as const) {
      for (const stored of ['kyc', 'sim_swap', 'device_swap', 'check', 'kyc_match']) expect(currentOperationName(iface, stored)).toBe(stored);
    }
    expect(currentOperationName('camara', 'constructor')).toBe('constructor');
  });
});
