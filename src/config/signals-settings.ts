import { SettingsOf, bool, optionalInt } from './setting-types';

/** The fraud and identity signal APIs (CONTRACT §11): Device Swap, Call Forwarding Signal. */
export const signalsSettings = {
  /** CAMARA Device Swap: days of device-change history the operator may reveal; unset = unlimited (CONTRACT §11). */
  DEVICE_SWAP_MONITORED_DAYS: optionalInt(1, 36_500),
  /** CAMARA Call Forwarding Signal: false = the full list (`call-forwardings`) is not offered, 501 NOT_IMPLEMENTED. */
  CALL_FORWARDING_LIST: bool(true),
};

export type SignalsSettings = SettingsOf<typeof signalsSettings>;
