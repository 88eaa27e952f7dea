import { UpstreamSettings } from '../../config/upstream-settings';
import { Logger } from '../../observability/logger';
import { defaultFixturesPath, loadFixtures } from '../../simulator/fixtures';
import { Simulator, createSimulator } from '../../simulator/simulator';
import { Metrics } from '../ports/metrics';
import { breakerOptionsOf } from './breaker-options';
import { CrmHttpClient } from './crm-http-client';
import { HlrHttpClient } from './hlr-http-client';
import { SimHttpClient } from './sim-http-client';

export interface Upstreams {
  hlr: HlrHttpClient;
  sim: SimHttpClient;
  /** Customer records (KYC Match): CRM_URL, else the in-process simulator's; undefined: none configured. */
  crm?: CrmHttpClient;
  /** The in-process simulator when no upstream URLs were configured. */
  simulator?: Simulator;
  simulatorUrl?: string;
  /** Each upstream's breaker state, for /readyz (crm only when configured). */
  states: () => Record<string, string>;
  close(): Promise<void>;
}

/**
 * The HLR, SIM-management and customer-records clients, each behind its own deadline and
 * breaker; without HLR_URL/SIM_URL, the simulator in-process (customer records too, unless CRM_URL).
 */
export async function createUpstreams(deps: { logger: Logger; metrics: Metrics }, config: UpstreamSettings): Promise<Upstreams> {
  const { logger, metrics } = deps;
  let simulator: Simulator | undefined;
  let simulatorUrl: string | undefined;
  let hlrUrl = config.HLR_URL;
  let simUrl = config.SIM_URL;
  if (!hlrUrl || !simUrl) {
    simulator = createSimulator({ subscribers: loadFixtures(defaultFixturesPath()), synthetic: false });
    simulatorUrl = await simulator.listen(0, '127.0.0.1');
    hlrUrl = `${simulatorUrl}/hlr`;
    simUrl = `${simulatorUrl}/sim`;
    logger.info({ simulatorUrl }, 'no HLR_URL/SIM_URL: upstream simulator running in-process on the demo fixture');
  }
  const crmUrl = config.CRM_URL ?? (simulatorUrl === undefined ? undefined : `${simulatorUrl}/crm`);
  const breaker = breakerOptionsOf(config);
  const onBreakerChange = (upstream: string, state: string, lastFailure?: object) => logger.warn({ upstream, state, lastFailure }, 'circuit breaker changed state');
  const shared = { maxSockets: config.UPSTREAM_MAX_SOCKETS, maxBodyBytes: config.UPSTREAM_MAX_BODY_BYTES, breaker, metrics, onBreakerChange, logger };
  let hlr: HlrHttpClient;
  let sim: SimHttpClient;
  let crm: CrmHttpClient | undefined;
  try {
    hlr = new HlrHttpClient({ baseUrl: hlrUrl, timeoutMs: config.HLR_TIMEOUT_MS, ...shared });
    sim = new SimHttpClient({ baseUrl: simUrl, timeoutMs: config.SIM_TIMEOUT_MS, ...shared });
    crm = crmUrl === undefined ? undefined : new CrmHttpClient({ baseUrl: crmUrl, timeoutMs: config.CRM_TIMEOUT_MS, ...shared });
  } catch (err) {
    // Not yet on the lifecycle's list: the simulator this factory started is its own to close.
    await simulator?.close();
    throw err;
  }
  return {
    hlr, sim,
    ...(crm ? { crm } : {}),
    ...(simulator ? { simulator, simulatorUrl } : {}),
    states: () => ({ hlr: hlr.upstream.state(), sim: sim.upstream.state(), ...(crm ? { crm: crm.upstream.state() } : {}) }),
    close: async () => {
      hlr.upstream.shutdown();
      sim.upstream.shutdown();
      crm?.upstream.shutdown();
      await simulator?.close();
    },
  };
}
