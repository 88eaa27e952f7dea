import { CamaraCallDeps, CamaraCaller, camaraCaller, requireScope } from '../camara/camara-call';
import { parseCheckBody, parseRetrieveDateBody } from '../camara/camara-input';
import { ChangeDate } from '../camara/change-date';
import { Clock } from '../kernel/clock';
import { SCOPES } from '../oauth/access-scopes';
import { AccessGrant } from '../oauth/ports/access-tokens';
import { camaraApi } from '../partners/camara-apis';
import { Operation } from '../partners/operation';
import { simSwapLookBackTooLong } from '../verification/monitored-period';
import { latestSimChangeOf } from '../verification/subscriber-facts';
import { VerificationService } from '../verification/verification-service';

/** The two SIM Swap operations (CONTRACT §7). */
export type SimSwapOperation = 'retrieve-date' | 'check';

/** Scopes that allow each operation (any one suffices), as sim-swap.yaml's security section names them. */
export const SIM_SWAP_SCOPES: Record<SimSwapOperation, readonly string[]> = {
  'retrieve-date': [SCOPES.simSwapRetrieveDate, SCOPES.simSwap],
  check: [SCOPES.simSwapCheck, SCOPES.simSwap],
};

/** The registry word (permission, rate limit, metrics label) both operations spend. */
export const SIM_SWAP_PARTNER_OPERATION: Operation = camaraApi('sim-swap').registryOperation;

/** Every answer names the normalised msisdn it is about (for the request log and audit), never echoed to the caller. */
export interface SimChange {
  msisdn: string;
  /** The latest swap, else the current SIM's activation (ms); null when unknown or beyond the monitored period. */
  latestSimChangeMs: number | null;
  /** Days the operator keeps SIM changes, present when latestSimChangeMs is null because the change is older. */
  monitoredPeriodDays?: number;
}

export interface SimSwapCheck {
  msisdn: string;
  swapped: boolean;
}

export interface SimSwapServiceDeps {
  verification: VerificationService;
  clock: Clock;
  /** Subject, admission and audit: the shared CAMARA kit. */
  call: CamaraCallDeps;
  /** SIM_SWAP_MONITORED_DAYS; undefined = unlimited history. */
  monitoredDays?: number;
}

/**
 * SIM Swap 2.1.0 over the one verification service: its cache, single-flight, breakers and rate
 * limits. The checks run in the order the spec implies: scope (403), body (400), identifier and
 * number plan (422), partner admission (403/429), subscriber (404). From partner admission on,
 * the outcome is audited.
 */
export class SimSwapService {
  private readonly call: CamaraCaller<SimSwapOperation>;
  /** No SIM change known (null): not swapped, and retrieve-date's latestSimChange is null. */
  private readonly changes: ChangeDate;

  constructor(private readonly deps: SimSwapServiceDeps) {
    this.call = camaraCaller(deps.call, 'sim-swap');
    this.changes = new ChangeDate({
      clock: deps.clock, monitoredDays: deps.monitoredDays, tooLong: simSwapLookBackTooLong, latest: (msisdn) => this.latestSimChange(msisdn),
    });
  }

  async retrieveDate(grant: AccessGrant, body: unknown, correlator: string): Promise<SimChange> {
    requireScope(grant, SIM_SWAP_SCOPES['retrieve-date']);
    const input = parseRetrieveDateBody(body);
    return this.call({ grant, phoneNumber: input.phoneNumber, operation: 'retrieve-date', correlator }, async (msisdn) => {
      const { latestMs, ...period } = await this.changes.seen(msisdn);
      return { msisdn, latestSimChangeMs: latestMs, ...period };
    });
  }

  async check(grant: AccessGrant, body: unknown, correlator: string): Promise<SimSwapCheck> {
    requireScope(grant, SIM_SWAP_SCOPES.check);
    const input = parseCheckBody(body);
    const hours = this.changes.lookBackHours(input.maxAge);
    // A new SIM activation (a new line, never swapped since) counts as a swap (sim-swap.yaml).
    return this.call({ grant, phoneNumber: input.phoneNumber, operation: 'check', correlator },
      async (msisdn) => ({ msisdn, swapped: await this.changes.changedWithin(msisdn, hours) }));
  }

  /**
   * retrieve-date's answer before the monitored period applies. The line must be a subscriber
   * that is not terminated (CONTRACT §7): both systems are asked, in parallel, from cache.
   */
  private async latestSimChange(msisdn: string): Promise<number | null> {
    const { verification } = this.deps;
    const [hlr, sim] = await Promise.all([verification.hlrFactsWithTenure(msisdn), verification.simFactsWithActivation(msisdn)]);
    return latestSimChangeOf(hlr, sim);
  }
}
