import { SettingsOf, SettingsRule, httpUrl, int, issue } from './setting-types';
import { ServerSettings } from './server-settings';

/** The HLR, SIM-management and customer-records upstreams: where, deadlines, sockets, circuit breakers. */
export const upstreamSettings = {
  /** Upstreams; when both are unset (not in production) the simulator runs in-process. */
  HLR_URL: httpUrl.optional(),
  SIM_URL: httpUrl.optional(),
  /**
   * Customer records (CONTRACT §11, KYC Match). Unset: the in-process simulator's when it runs;
   * beside HLR_URL/SIM_URL outside production, none (KYC Match answers 503).
   */
  CRM_URL: httpUrl.optional(),
  /** Per-call deadlines; the call is aborted when they pass. */
  HLR_TIMEOUT_MS: int(10, 60_000, 2000),
  SIM_TIMEOUT_MS: int(10, 60_000, 2000),
  CRM_TIMEOUT_MS: int(10, 60_000, 2000),
  UPSTREAM_MAX_SOCKETS: int(1, 10_000, 256),
  /**
   * The largest upstream reply body used, counted after decoding (CONTRACT §3): a compressed
   * body is inflated as it streams in and dropped (503) once its output passes this.
   */
  UPSTREAM_MAX_BODY_BYTES: int(1024, 16 * 1024 * 1024, 64 * 1024),
  /** Circuit breakers: open when this % of at least VOLUME calls in the window fail. */
  BREAKER_ERROR_THRESHOLD_PERCENT: int(1, 100, 50),
  BREAKER_VOLUME_THRESHOLD: int(1, 100_000, 20),
  BREAKER_WINDOW_MS: int(1000, 600_000, 10_000),
  BREAKER_RESET_TIMEOUT_MS: int(100, 600_000, 10_000),
};

export type UpstreamSettings = SettingsOf<typeof upstreamSettings>;

export const upstreamPairRule: SettingsRule<UpstreamSettings> = (c, ctx) => {
  if ((c.HLR_URL === undefined) !== (c.SIM_URL === undefined)) {
    issue(ctx, c.HLR_URL ? 'SIM_URL' : 'HLR_URL', 'HLR_URL and SIM_URL must be set together');
  }
};

/** No simulator in production, and no KYC Match without customer records. */
export const productionUpstreamRule: SettingsRule<UpstreamSettings & Pick<ServerSettings, 'NODE_ENV'>> = (c, ctx) => {
  if (c.NODE_ENV !== 'production') return;
  if (!c.HLR_URL) issue(ctx, 'HLR_URL', 'is required in production');
  if (!c.CRM_URL) issue(ctx, 'CRM_URL', 'is required in production');
};
