import { NotSubscriberError } from '../../src/errors/domain-errors';
import { KycResult, SimSwapResult } from '../../src/verification/results';
import { FactSource, createFactLoaders } from '../../src/graphql/request-context';
import { instanceOf } from '../support/matchers';

function countingSource() {
  const calls = { kyc: [] as string[], simSwap: [] as string[], hlr: [] as string[], sim: [] as string[] };
  const source: FactSource = {
    kyc: async (_raw, msisdn): Promise<KycResult> => {
      calls.kyc.push(msisdn);
      return { msisdn, isPrepaid: true, isActive: true, isValid: true };
    },
    simSwap: async (_raw, msisdn, maxAgeHours): Promise<SimSwapResult> => {
      calls.simSwap.push(`${msisdn}|${maxAgeHours ?? ''}`);
      if (msisdn === '255700000404') throw new NotSubscriberError('msisdn is not a subscriber');
      return { msisdn, simSwapped: false };
    },
    hlrFactsComplete: async (msisdn) => {
      calls.hlr.push(msisdn);
      return msisdn === '255700000404' ? null : { status: 'active', paymentType: 'prepaid', activatedAtMs: null, deviceFirstSeenAtMs: null, deviceChangedAtMs: null, callForwarding: [] };
    },
    simFactsWithActivation: async (msisdn) => {
      calls.sim.push(msisdn);
      return { lastSimSwapAtMs: null, simActivatedAtMs: null };
    },
  };
  return { source, calls };
}

describe('per-request fact loaders', () => {
  it('when a number is loaded however often and whenever, then the service is asked once per distinct number', async () => {
    const { source, calls } = countingSource();
    const loaders = createFactLoaders(source);
    await Promise.all(['255700000001', '255700000002', '255700000001'].map((m) => loaders.kyc.load(m)));
    await loaders.kyc.load('255700000001');
    expect(calls.kyc).toEqual(['255700000001', '255700000002']);
  });

  it('when the signals query loads raw records, then each upstream is asked once per distinct number', async () => {
    const { source, calls } = countingSource();
    const loaders = createFactLoaders(source);
    await Promise.all(['255700000001', '255700000404', '255700000001'].flatMap((m) => [loaders.hlr.load(m), loaders.sim.load(m), loaders.hlr.load(m)]));
    expect([calls.hlr, calls.sim]).toEqual([['255700000001', '255700000404'], ['255700000001', '255700000404']]);
    await expect(loaders.hlr.load('255700000404')).resolves.toBeNull();
  });

  it('when one number fails, then only that number fails', async () => {
    const { source } = countingSource();
    const loaders = createFactLoaders(source);
    const [bad, good] = await Promise.allSettled([
      loaders.simSwap.load({ msisdn: '255700000404' }),
      loaders.simSwap.load({ msisdn: '255700000001' }),
    ]);
    expect(bad).toMatchObject({ status: 'rejected', reason: instanceOf(NotSubscriberError) });
    expect(good).toEqual({ status: 'fulfilled', value: { msisdn: '255700000001', simSwapped: false } });
  });

  it('when SIM-swap windows differ, then their answers are kept apart', async () => {
    const { source, calls } = countingSource();
    const loaders = createFactLoaders(source);
    await Promise.all([
      loaders.simSwap.load({ msisdn: '255700000001' }),
      loaders.simSwap.load({ msisdn: '255700000001', maxAgeHours: 1 }),
      loaders.simSwap.load({ msisdn: '255700000001', maxAgeHours: 1 }),
    ]);
    expect(calls.simSwap.sort()).toEqual(['255700000001|', '255700000001|1']);
  });

  it('when a new request starts, then nothing is remembered from the last', async () => {
    const { source, calls } = countingSource();
    await createFactLoaders(source).kyc.load('255700000001');
    await createFactLoaders(source).kyc.load('255700000001');
    expect(calls.kyc).toHaveLength(2);
  });
});
