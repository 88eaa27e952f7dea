import { Redis } from 'ioredis';
import { formatTable } from '../tools/process-kit/text-table';
import { cpuSeconds } from '../tools/process-kit/proc-stats';
import { redisCommandCalls, redisCommandsBetween } from './fanout-summary';

/**
 * What one request of a scenario costs outside the server's own CPU: the commands redis-server
 * ran, the bytes it read and wrote, its CPU, and the upstream calls the service made; the
 * inputs of the capacity model (docs/capacity.md). Counted over the warm-up and the measured
 * run together (the counters cannot tell them apart) and divided by the requests of both.
 */
export interface RequestCosts {
  requests: number;
  redisCommands: number;
  redisByCommand: Record<string, number>;
  redisBytesIn: number;
  redisBytesOut: number;
  redisCpuUs: number;
  upstreamCalls: number;
}

interface RedisReading { commands: Record<string, number>; bytesIn: number; bytesOut: number; cpuS: number }

const stat = (info: string, name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(info)?.[1] ?? NaN);

/** Reads redis-server's counters now; `finish` reads them again and gives the costs per request. */
export async function startCosts(url: string, redisPid: number | undefined): Promise<(requests: number, counters: Record<string, number> | undefined) => Promise<RequestCosts>> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const read = async (): Promise<RedisReading> => {
    const info = await redis.info('all');
    return { commands: redisCommandCalls(info), bytesIn: stat(info, 'total_net_input_bytes'), bytesOut: stat(info, 'total_net_output_bytes'), cpuS: redisPid ? cpuSeconds(redisPid) : NaN };
  };
  const before = await read();
  return async (requests, counters) => {
    const after = await read();
    redis.disconnect();
    const n = Math.max(1, requests);
    const commands = redisCommandsBetween(before.commands, after.commands);
    // The two INFO calls of this reading are not the scenario's.
    const info = commands.byCommand.info ?? 0;
    const byCommand = Object.fromEntries(Object.entries(commands.byCommand).filter(([c]) => c !== 'info').map(([c, k]) => [c, k / n]));
    const upstream = Object.entries(counters ?? {}).filter(([k]) => k.startsWith('verify_upstream_calls_total')).reduce((a, [, v]) => a + v, 0);
    return {
      requests, redisCommands: (commands.total - info) / n, redisByCommand: byCommand,
      redisBytesIn: (after.bytesIn - before.bytesIn) / n, redisBytesOut: (after.bytesOut - before.bytesOut) / n,
      redisCpuUs: ((after.cpuS - before.cpuS) * 1e6) / n, upstreamCalls: upstream / n,
    };
  };
}

const fmt = (n: number | undefined, digits = 1) => (n === undefined || Number.isNaN(n) ? '-' : n.toFixed(digits));

/** One row per scenario that has costs: the capacity model's inputs. */
export function costsTable(rows: { id: string; cpuUsPerRequest?: number; costs?: RequestCosts }[]): string {
  const withCosts = rows.filter((r) => r.costs);
  return formatTable(
    ['per request', 'server CPU µs', 'Redis commands', 'Redis bytes in', 'Redis bytes out', 'Redis CPU µs', 'upstream calls', 'commands (most first)'],
    withCosts.map(({ id, cpuUsPerRequest, costs }) => {
      const c = costs as RequestCosts;
      const top = Object.entries(c.redisByCommand).sort((a, b) => b[1] - a[1]).slice(0, 4).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ');
      return [id, fmt(cpuUsPerRequest, 0), fmt(c.redisCommands, 2), fmt(c.redisBytesIn, 0), fmt(c.redisBytesOut, 0), fmt(c.redisCpuUs), fmt(c.upstreamCalls, 2), top];
    }),
    { markdown: true },
  );
}
