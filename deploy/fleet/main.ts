import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Fleet } from './fleet';

const USAGE = 'usage: npm run fleet -- [--instances N] [--port P]';

/** `npm run fleet`: the local fleet up until Ctrl-C, then everything down (docs/fleet.md). */
async function main(argv: string[]): Promise<number> {
  let values: { instances?: string; port?: string; help?: boolean };
  try {
    values = parseArgs({ args: argv, strict: true, options: { instances: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean' } } }).values;
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const instances = Number(values.instances ?? '3');
  const port = Number(values.port ?? '8080');
  if (!/^\d+$/.test(values.instances ?? '3') || instances < 1 || instances > 9 || !/^\d+$/.test(values.port ?? '8080') || port > 65535) {
    process.stderr.write(`--instances takes 1..9 and --port 0..65535\n${USAGE}\n`);
    return 2;
  }
  const root = join(__dirname, '..', '..', '..', '..');
  process.stdout.write('starting: Redis Cluster (3 masters + 3 replicas), simulator, instances, HAProxy, Prometheus...\n');
  const fleet = await Fleet.start({ root, instances, port, prometheus: true, keepDir: true });
  process.stdout.write([
    `fleet up (logs and configs in ${fleet.dir}):`,
    `  balancer      ${fleet.url}   (HAProxy, /readyz checks)`,
    `  HAProxy stats ${fleet.statsUrl}`,
    ...fleet.instances.map((i) => `  instance ${i.name}   ${i.url}   (admin: probes, /metrics ${i.adminUrl})`),
    `  OAuth         one signing key (${fleet.signingKeyFile}), issuer ${fleet.url}`,
    `  simulator     ${fleet.simulatorUrl}`,
    `  Redis Cluster ${fleet.redis.seedNodes}`,
    `  Prometheus    ${fleet.prometheusUrl}`,
    'Ctrl-C stops everything.',
    '',
  ].join('\n'));
  // The fleet's processes are unref'd (tests must never be kept alive by them): this timer is what keeps the launcher up.
  const keepAlive = setInterval(() => undefined, 60_000);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  process.stdout.write('stopping the fleet...\n');
  await fleet.stop();
  clearInterval(keepAlive);
  process.stdout.write('fleet stopped; nothing left running.\n');
  return 0;
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (err: unknown) => {
  process.stderr.write(`fleet: ${(err as Error).message}\n`);
  process.exitCode = 1;
});
