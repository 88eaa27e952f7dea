import { parseArgs } from 'node:util';
import { DeadLetters } from '../subscriptions/delivery/dead-letters';
import { loadConfig } from '../config/config';
import { UsageError } from './args';
import { CliIo } from './io';

const USAGE = `usage: verify-customer webhooks dead-letters [--json]
       verify-customer webhooks replay <jobId>... | --all
Needs Redis: reads REDIS_URL or REDIS_CLUSTER_NODES and REDIS_KEY_PREFIX as the service does.`;

/**
 * `webhooks dead-letters` lists the events whose retry window ran out; `webhooks replay`
 * queues them again (same CloudEvent id, new window). Dead letters live on Redis; with
 * state in memory they die with the process and only the metric counts them.
 */
export async function webhooksCommand(argv: readonly string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], strict: true, allowPositionals: true, options: { json: { type: 'boolean' }, all: { type: 'boolean' } } });
  } catch (err) {
    throw new UsageError(`${(err as Error).message}\n${USAGE}`);
  }
  const [sub, ...ids] = parsed.positionals;
  const { json, all } = parsed.values;
  if (sub === 'dead-letters') {
    if (ids.length > 0 || all) throw new UsageError(USAGE);
  } else if (sub === 'replay') {
    if (json || (all ? ids.length > 0 : ids.length === 0)) throw new UsageError(USAGE);
  } else {
    throw new UsageError(USAGE);
  }
  const config = loadConfig(io.env);
  if (!config.REDIS_URL && !config.REDIS_CLUSTER_NODES) {
    io.err(`verify-customer: webhooks ${sub} needs Redis: set REDIS_URL or REDIS_CLUSTER_NODES (and REDIS_KEY_PREFIX) as the service has them. ` +
      'Without Redis, dead letters stay inside the service process and only the metric verify_webhook_dead_letters counts them.');
    return 1;
  }
  const letters = new DeadLetters({ url: config.REDIS_URL, clusterNodes: config.REDIS_CLUSTER_NODES, keyPrefix: config.REDIS_KEY_PREFIX });
  try {
    if (sub === 'dead-letters') {
      const list = await letters.list();
      if (json) io.out(JSON.stringify(list));
      else if (list.length === 0) io.out('no dead letters');
      else for (const d of list) io.out(`${d.jobId}  ${d.type.split('.').pop() ?? ''}  subscription ${d.subscriptionId}  ${d.partner}  ${d.sinkOrigin}  ${d.attempts} attempts, last ${d.lastOutcome}, dead since ${d.deadAt ?? '?'}`);
      return 0;
    }
    const replayed = await letters.replay(all ? 'all' : ids);
    io.out(`replayed ${replayed.length}${replayed.length ? `: ${replayed.join(' ')}` : ''}`);
    return all || replayed.length === ids.length ? 0 : 1;
  } finally {
    await letters.close();
  }
}
