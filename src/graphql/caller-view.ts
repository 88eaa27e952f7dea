import { Partner } from '../partners/partners';

/** SIM_SWAP_MONITORED_DAYS and DEVICE_SWAP_MONITORED_DAYS; undefined: unlimited. */
export interface MonitoredPeriods {
  simSwapDays?: number;
  deviceSwapDays?: number;
}

/**
 * The periods a GraphQL caller is bound by (CONTRACT §2). GraphQL shares partner credentials,
 * so only a registry entry of kind `internal` gets the operator's own view (every date, any
 * look-back up to 2400 h); a `partner` sees exactly what its CAMARA calls would show it: the
 * same monitored periods, the same look-back bound, the same errors.
 */
export function monitoredFor(partner: Partner, periods: MonitoredPeriods): MonitoredPeriods {
  return partner.kind === 'internal' ? {} : periods;
}
