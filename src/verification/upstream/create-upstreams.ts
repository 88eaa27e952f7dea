import { UpstreamSettings } from '../../config/upstream-settings';
import { Logger } from '../../observability/logger';
import { defaultFixturesPath, loadFixtures } from '../../simulator/fixtures';
import { Simulator, createSimulator } from '../../simulator/simulator';
import { Metrics } from '../ports/metrics';
import { HlrHttpClient } from './hlr-http-client';
import { SimHttpClient } from './sim-http-client';

export interface Upstreams {
  hlr: HlrHttpClient;
  sim: SimHttpClient;
  /** The in-process simulator when no upstream URLs were configured. */
  simulator?: Simulator;
  simulatorUrl?: string;
  /** Each upstream's breaker state, for /readyz. */
  states: () => Record<string, string>;
  close(): Promise<void>;
}

/** The HLR and SIM-management clients behind their breakers; without HLR_URL/SIM_URL, the simulator in-process. */
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
  const breaker = {
    errorThresholdPercentage: config.BREAKER_ERROR_THRESHOLD_PERCENT,
    volumeThreshold: config.BREAKER_VOLUME_THRESHOLD,
    windowMs: config.BREAKER_WINDOW_MS,
    resetTimeoutMs: config.BREAKER_RESET_TIMEOUT_MS,
  };
  const onBreakerChange = (upstream: string, state: string, lastFailure?: object) => logger.warn({ upstream, state, lastFailure }, 'circuit breaker changed state');
  const shared = { maxSockets: config.UPSTREAM_MAX_SOCKETS, breaker, metrics, onBreakerChange, logger };
  let hlr: HlrHttpClient;
  let sim: SimHttpClient;
  try {
    hlr = new HlrHttpClient({ baseUrl: hlrUrl, timeoutMs: config.HLR_TIMEOUT_MS, ...shared });
    sim = new SimHttpClient({ baseUrl: simUrl, timeoutMs: config.SIM_TIMEOUT_MS, ...shared });
  } catch (err) {
    // Not yet on the lifecycle's list: the simulator this factory started is its own to close.
    await simulator?.close();
    throw err;
  }
  return {
    hlr, sim,
    ...(simulator ? { simulator, simulatorUrl } : {}),
    states: () => ({ hlr: hlr.upstream.state(), sim: sim.upstream.state() }),
    close: async () => {
      hlr.upstream.shutdown();
      sim.upstream.shutdown();
      await simulator?.close();
    },
  };
}
