import { CamaraCallDeps, CamaraCaller, camaraCaller, requireScope } from '../camara/camara-call';
import { ChangeDate } from '../camara/change-date';
import { Clock } from '../kernel/clock';
import { AccessGrant } from '../oauth/ports/access-tokens';
import { camaraApi } from '../partners/camara-apis';
import { Operation } from '../partners/operation';
import { SCOPES } from '../oauth/access-scopes';
import { HlrRecord } from '../verification/ports/upstreams';
import { latestDeviceChangeOf, subscriberOf } from '../verification/subscriber-facts';
import { NeverInDeviceError } from './device-swap-errors';
import { parseDeviceCheckBody, parseDeviceRetrieveDateBody } from './device-swap-input';

/** The registry word both operations spend (permission, rate limit, metrics label, audit). */
export const DEVICE_SWAP_OPERATION: Operation = camaraApi('device-swap').registryOperation;

export interface DeviceChange {
  msisdn: string;
  /** The latest device change, else the first use in a device (ms); null when beyond the monitored period. */
  latestDeviceChangeMs: number | null;
  /** Days the operator keeps device changes, present when latestDeviceChangeMs is null because the change is older. */
  monitoredPeriodDays?: number;
}

export interface DeviceSwapCheck {
  msisdn: string;
  swapped: boolean;
}

export interface DeviceSwapServiceDeps {
  /** Subject, admission and audit: the shared CAMARA kit. */
  call: CamaraCallDeps;
  /** The HLR's facts with the device fields, from the verification core's cache (CONTRACT §11). */
  hlrFacts(msisdn: string): Promise<HlrRecord | null>;
  clock: Clock;
  /** DEVICE_SWAP_MONITORED_DAYS; undefined = unlimited history. */
  monitoredDays?: number;
}

/**
 * The date Device Swap reports for a subscriber: the latest change of device, else the first
 * time the number was used in one (device-swap.yaml: a device swap is the association created
 * for the first time or changed). Never in a device, or unknown: 422 (NeverInDeviceError).
 */
export function latestDeviceChange(rec: HlrRecord | null): number {
  const latest = latestDeviceChangeOf(subscriberOf(rec));
  if (latest === null) throw new NeverInDeviceError('no use of the phone number in a device is known on this network');
  return latest;
}

/** CAMARA Device Swap 1.0.0 (CONTRACT §11) over the verification core's HLR facts. */
export class DeviceSwapService {
  /** Charged under the registry operation; audited as it plus the operation (`device_swap.check`), so usage tells the two apart. */
  private readonly call: CamaraCaller<'retrieve-date' | 'check'>;
  /** Never in a device: 422 (latestDeviceChange), on both operations. */
  private readonly changes: ChangeDate;

  constructor(deps: DeviceSwapServiceDeps) {
    this.call = camaraCaller(deps.call, 'device-swap');
    this.changes = new ChangeDate({
      clock: deps.clock,
      monitoredDays: deps.monitoredDays,
      // The monitored period is SIM Swap's rule; device-swap.yaml words its 400 its own way.
      tooLong: (days) => `maxAge cannot exceed the monitored period of ${days} days (local regulations)`,
      latest: async (msisdn) => latestDeviceChange(await deps.hlrFacts(msisdn)),
    });
  }

  async retrieveDate(grant: AccessGrant, body: unknown, correlator: string): Promise<DeviceChange> {
    requireScope(grant, [SCOPES.deviceSwapRetrieveDate, SCOPES.deviceSwap]);
    const input = parseDeviceRetrieveDateBody(body);
    return this.call({ grant, phoneNumber: input.phoneNumber, operation: 'retrieve-date', correlator }, async (msisdn) => {
      const { latestMs, ...period } = await this.changes.seen(msisdn);
      return { msisdn, latestDeviceChangeMs: latestMs, ...period };
    });
  }

  async check(grant: AccessGrant, body: unknown, correlator: string): Promise<DeviceSwapCheck> {
    requireScope(grant, [SCOPES.deviceSwapCheck, SCOPES.deviceSwap]);
    const input = parseDeviceCheckBody(body);
    const hours = this.changes.lookBackHours(input.maxAge);
    return this.call({ grant, phoneNumber: input.phoneNumber, operation: 'check', correlator },
      async (msisdn) => ({ msisdn, swapped: await this.changes.changedWithin(msisdn, hours) }));
  }
}
