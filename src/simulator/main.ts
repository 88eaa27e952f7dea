import * as path from 'node:path';
import { defaultFixturesPath, loadFixtures } from './fixtures';
import { createSimulator } from './simulator';
import { swapReporter } from './swap-reporter';
import { SimSubscriber } from './subscriber';
import { requireSupportedNode } from '../kernel/runtime-check';

/** The simulator process's settings, read from the environment. */
export interface SimulatorEnv {
  port: number;
  host: string;
  fixtures: string;
  synthetic: boolean;
  /** SIMULATOR_EVENTS_URL and SIMULATOR_EVENTS_TOKEN: where admin-made swaps are reported (the service's events route). */
  eventsUrl?: string;
  eventsToken?: string;
}

/** Throws an Error naming the variable on a bad value: a typo must not silently run another setup. */
export function parseSimulatorEnv(env: NodeJS.ProcessEnv): SimulatorEnv {
  const port = env.SIMULATOR_PORT || '9090';
  if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
    throw new Error(`SIMULATOR_PORT must be an integer 0..65535 (got "${port}")`);
  }
  const synthetic = env.SIMULATOR_SYNTHETIC || 'false';
  if (synthetic !== 'true' && synthetic !== 'false') {
    throw new Error(`SIMULATOR_SYNTHETIC must be "true" or "false" (got "${synthetic}")`);
  }
  const eventsUrl = env.SIMULATOR_EVENTS_URL || undefined;
  const eventsToken = env.SIMULATOR_EVENTS_TOKEN || undefined;
  if (eventsUrl !== undefined && !/^https?:\/\/\S+$/.test(eventsUrl)) throw new Error(`SIMULATOR_EVENTS_URL must be an http(s) URL (got "${eventsUrl}")`);
  if ((eventsUrl === undefined) !== (eventsToken === undefined)) throw new Error('SIMULATOR_EVENTS_URL and SIMULATOR_EVENTS_TOKEN must be set together');
  return {
    ...(eventsUrl === undefined ? {} : { eventsUrl, eventsToken }),
    port: Number(port),
    host: env.SIMULATOR_HOST || '127.0.0.1',
    fixtures: env.SIMULATOR_FIXTURES ? path.resolve(env.SIMULATOR_FIXTURES) : defaultFixturesPath(),
    synthetic: synthetic === 'true',
  };
}

async function main(): Promise<void> {
  let env: SimulatorEnv;
  try {
    env = parseSimulatorEnv(process.env);
  } catch (err) {
    return fail(err);
  }
  let subscribers: SimSubscriber[];
  try {
    subscribers = loadFixtures(env.fixtures);
  } catch (err) {
    return fail(new Error(`SIMULATOR_FIXTURES: ${(err as Error).message}`));
  }
  const onSwap = env.eventsUrl && env.eventsToken
    ? swapReporter(env.eventsUrl, env.eventsToken, (line) => process.stderr.write(`simulator: ${line}\n`))
    : undefined;
  const sim = createSimulator({ subscribers, synthetic: env.synthetic, ...(onSwap ? { onSwap } : {}) });
  let url: string;
  try {
    url = await sim.listen(env.port, env.host);
  } catch (err) {
    return fail(new Error(`cannot listen on ${env.host}:${env.port}: ${(err as Error).message}`));
  }
  // stdout carries exactly this line so scripts can `eval`/grep it for the service's env;
  // CRM_URL comes last so that readers of the older two-variable line still match it.
  process.stdout.write(`HLR_URL=${url}/hlr SIM_URL=${url}/sim CRM_URL=${url}/crm\n`);
  process.stderr.write(
    `simulator: ${subscribers.length} subscribers from ${env.fixtures}, synthetic ${env.synthetic ? 'on' : 'off'}\n`,
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals): void => {
    if (stopping) process.exit(1); // a second signal means "now"
    stopping = true;
    process.stderr.write(`simulator: ${signal}, closing\n`);
    sim.close().then(
      () => process.exit(0),
      (err: unknown) => fail(err),
    );
  };
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

function fail(err: unknown): void {
  process.stderr.write(`simulator: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}

if (require.main === module) {
  requireSupportedNode('simulator');
  void main();
}
