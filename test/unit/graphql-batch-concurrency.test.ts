import { FieldNode, GraphQLResolveInfo, Kind, OperationDefinitionNode, parse } from 'graphql';
import { AuditRecorder } from '../../src/audit/audit-recorder';
import { GraphqlContext } from '../../src/graphql/request-context';
import { BATCH_LOOKUPS_IN_FLIGHT, verifyCustomers } from '../../src/graphql/verify-customers';
import { KycResult } from '../../src/verification/results';

/**
 * GraphQL batches share one bound on the numbers being verified at once per process: memory
 * promoted from the lookups in flight grew with connections × batch size (docs/performance.md).
 */
function kycOnlyInfo(): GraphQLResolveInfo {
  const op = parse('{ verifyCustomers(msisdns: []) { msisdn kyc { isValid } } }').definitions[0] as OperationDefinitionNode;
  const field = op.selectionSet.selections.find((s): s is FieldNode => s.kind === Kind.FIELD) as FieldNode;
  return { fieldNodes: [field], fragments: {}, variableValues: {} } as unknown as GraphQLResolveInfo;
}

describe('GraphQL batches: numbers verified at once per process', () => {
  it('when three batches of 100 arrive together, then at most BATCH_LOOKUPS_IN_FLIGHT numbers are looked up at once, and every number is answered', async () => {
    let inFlight = 0;
    let most = 0;
    const pending: (() => void)[] = [];
    const load = (msisdn: string): Promise<KycResult> => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      return new Promise((resolve) => pending.push(() => {
        inFlight -= 1;
        resolve({ msisdn, isPrepaid: true, isActive: true, isValid: true });
      }));
    };
    const ctx = {
      partner: { name: 'p' }, replayed: false, res: { locals: { correlator: 'c' } }, monitored: {}, audit: { refusalRecorded: false },
      loaders: { kyc: { load }, simSwap: { load } },
    } as unknown as GraphqlContext;
    const audit = { admit() {}, track: <T>(_s: unknown, work: () => Promise<T>) => work(), failed: async () => {} } as unknown as AuditRecorder;
    const deps = { service: { admit: async () => {} }, normalise: (raw: string) => raw, audit };
    const batch = (b: number) => Array.from({ length: 100 }, (_, i) => `2557${String(b * 1000 + i).padStart(8, '0')}`);

    const answers = Promise.all([0, 1, 2].map((b) => verifyCustomers(deps as never, { msisdns: batch(b) }, ctx, kycOnlyInfo())));
    // Answer whatever is waiting, a step at a time, until every batch is done.
    let done = false;
    void answers.then(() => { done = true; });
    while (!done) {
      await new Promise((r) => setImmediate(r));
      pending.splice(0).forEach((answer) => answer());
    }
    const items = (await answers).flat();
    expect(items).toHaveLength(300);
    expect(items.every((i) => i.kyc?.isValid === true && i.error === null)).toBe(true);
    expect(most).toBe(BATCH_LOOKUPS_IN_FLIGHT);
  });
});
