import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { SCOPES } from '../src/oauth/access-scopes';
import { SWAPPED } from '../src/subscriptions/domain/subscription';
import { RssSampler, cpuSeconds } from '../tools/process-kit/proc-stats';
import { FanoutSettings } from './bench-args';
import { createSubscriptions, fanoutNumbers, sendSwaps } from './fanout-requests';
import { FanoutSinks, nowMs, startSinks } from './fanout-sinks';
import { FanoutSummary, latencyStats, redisCommandCalls, redisCommandsBetween, summariseFanout } from './fanout-summary';
import { FANOUT_ID } from './scenarios';
import { RunningTarget, Stack, fetchBearer, scrapeCounters, startTarget } from './stack';

/** Calls in flight while creating subscriptions and while sending the burst: the load scenarios' 32 connections. */
export const FANOUT_IN_FLIGHT = 32;
/** Numbers swapped once before the burst (one subscription per sink each), to warm the delivery path up. */
const WARMUP_NUMBERS = 20;
/** The wait ends when every event has arrived, or when none has for this long. */
const IDLE_TIMEOUT_MS = 30_000;
/** After the last expected event: time for a repeat to show up. */
const SETTLE_MS = 2000;
/** F1's own keys and queue on the bench's redis-server, apart from any other service process's. */
const KEY_PREFIX = 'bench-f1:';

export interface FanoutResult extends FanoutSummary {
  id: string;
  title: string;
  settings: FanoutSettings;
  /** Creation and burst calls in flight. */
  inFlight: number;
  creation: { seconds: number; perS: number };
  /** sendS: first to last swap first sent; ack: first send to the 200 (retries included). */
  burst: { swaps: number; sendS: number; ackP50Ms: number; ackP99Ms: number; retried: Record<string, number>; failed: Record<string, number> };
  /** CPU over the span (first swap sent to last event received), % of one core. */
  cpuPct: { service: number; redis: number; bench: number };
  /** The service's peak RSS during the burst. */
  peakRssMb: number;
  /** verify_webhook_attempts_total by outcome over the burst. */
  attempts: Record<string, number>;
  /** Commands redis-server ran over the span, per event delivered (BullMQ's and the subscription store's). */
  redisCommandsPerDelivery: number;
  /** Those commands by name, most calls first. */
  redisCommands: Record<string, number>;
  malformed: number;
  /** What F1's service's /readyz said about its state store ('redis' for BullMQ delivery). */
  storeMode?: string;
}

const log = (msg: string) => process.stderr.write(`bench: ${FANOUT_ID}: ${msg}\n`);

export function fanoutTitle(s: FanoutSettings): string {
  return `SIM swap fan-out, ${s.subscriptions} subscriptions on ${s.numbers} numbers, ${s.sinks} sink${s.sinks === 1 ? '' : 's'}`;
}

/** Resolves (epoch ms) once the sinks hold `expected` distinct events, or once none has come for IDLE_TIMEOUT_MS. */
async function waitForEvents(sinks: FanoutSinks, expected: number): Promise<number> {
  let seen = sinks.distinct();
  let changedAt = nowMs();
  while (sinks.distinct() < expected && nowMs() - changedAt < IDLE_TIMEOUT_MS) {
    await new Promise((r) => setTimeout(r, 10));
    if (sinks.distinct() !== seen) {
      seen = sinks.distinct();
      changedAt = nowMs();
    }
  }
  return nowMs();
}

async function attemptsByOutcome(url: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const [series, n] of await scrapeCounters(url, ['verify_webhook_attempts_total'])) {
    const m = /outcome="([^"]+)"/.exec(series);
    if (m) out[m[1]] = n;
  }
  return out;
}

/**
 * F1: the service (production mode, state and BullMQ on the bench's redis-server) with
 * `subscriptions` subscriptions over `numbers` numbers to local sinks, then one swap per number
 * reported at once; the events counted at the sinks (each exactly once, none lost) and timed.
 */
export async function runFanout(stack: Stack, s: FanoutSettings, cpuProfDir?: string): Promise<FanoutResult> {
  const sinks = await startSinks(s.sinks);
  const eventsToken = randomBytes(24).toString('hex');
  const redis = new Redis(stack.redis.url, { lazyConnect: true });
  let target: RunningTarget | undefined;
  try {
    target = await startTarget(stack, 'fanout', {
      ...(cpuProfDir ? { cpuProfDir } : {}),
      env: {
        EVENTS_TOKEN: eventsToken,
        // The sinks are plain http on loopback: CONTRACT §8's two opt-ins.
        SINK_ALLOW_HTTP: 'true',
        SINK_ALLOW_PRIVATE: 'true',
        WEBHOOK_CONCURRENCY: String(s.concurrency),
        WEBHOOK_SINK_CONCURRENCY: String(s.sinkConcurrency),
        REDIS_KEY_PREFIX: KEY_PREFIX,
        // One partner holds every subscription of the run (warm-up and measured): the per-partner
        // cap (1,000 by default, CONTRACT §8's abuse limit) is raised to exactly what F1 creates.
        SUBSCRIPTIONS_MAX_PER_PARTNER: String(WARMUP_NUMBERS * s.sinks + s.subscriptions),
      },
    });
    const url = target.url;
    const token = await fetchBearer(stack, url, SCOPES.subscriptionsCreate);
    const create = (numbers: string[], count: number) => createSubscriptions(url, token, { numbers, sinks: sinks.urls, count, inFlight: FANOUT_IN_FLIGHT });

    const warm = fanoutNumbers(5_000_000, WARMUP_NUMBERS);
    const warmCount = WARMUP_NUMBERS * s.sinks;
    await create(warm, warmCount);
    await sendSwaps(url, eventsToken, warm, FANOUT_IN_FLIGHT);
    await waitForEvents(sinks, warmCount);
    if (sinks.distinct() < warmCount) throw new Error(`${FANOUT_ID}: warm-up: ${sinks.distinct()} of ${warmCount} events arrived`);
    sinks.reset();

    const numbers = fanoutNumbers(0, s.numbers);
    const createdAt = nowMs();
    const subs = await create(numbers, s.subscriptions);
    const creationS = (nowMs() - createdAt) / 1000;
    log(`${s.subscriptions} subscriptions created in ${creationS.toFixed(1)} s (${(s.subscriptions / creationS).toFixed(0)}/s, ${FANOUT_IN_FLIGHT} in flight)`);

    await redis.connect();
    const commandsBefore = redisCommandCalls(await redis.info('commandstats'));
    const attemptsBefore = await attemptsByOutcome(url);
    const redisPid = stack.redis.pid();
    const cpuBefore = { service: cpuSeconds(target.pid), redis: redisPid ? cpuSeconds(redisPid) : 0, bench: process.cpuUsage() };
    const rss = new RssSampler(target.pid);
    rss.start();
    const startedAt = nowMs();
    const burstDone = sendSwaps(url, eventsToken, numbers, FANOUT_IN_FLIGHT);
    const endedAt = await waitForEvents(sinks, s.subscriptions);
    const wallS = (endedAt - startedAt) / 1000;
    const bench = process.cpuUsage(cpuBefore.bench);
    const cpuPct = {
      service: ((cpuSeconds(target.pid) - cpuBefore.service) / wallS) * 100,
      redis: redisPid ? ((cpuSeconds(redisPid) - cpuBefore.redis) / wallS) * 100 : NaN,
      bench: ((bench.user + bench.system) / 1e6 / wallS) * 100,
    };
    const commands = redisCommandsBetween(commandsBefore, redisCommandCalls(await redis.info('commandstats')));
    const burst = await burstDone;
    const peakRssMb = rss.stop();
    await new Promise((r) => setTimeout(r, SETTLE_MS));

    const sentAtMs = new Map<string, number>();
    for (const [id, number] of subs) sentAtMs.set(id, burst.sentAtMs[number]);
    const summary = summariseFanout({ sentAtMs, arrivals: sinks.arrivals, type: SWAPPED, sinks: s.sinks });
    const attemptsAfter = await attemptsByOutcome(url);
    const attempts: Record<string, number> = {};
    for (const [k, v] of Object.entries(attemptsAfter)) if (v - (attemptsBefore[k] ?? 0) !== 0) attempts[k] = v - (attemptsBefore[k] ?? 0);
    const ack = latencyStats(burst.ackMs);
    const lastSent = burst.sentAtMs.reduce((m, t) => Math.max(m, t), -Infinity);
    return {
      id: FANOUT_ID, title: fanoutTitle(s), settings: s, inFlight: FANOUT_IN_FLIGHT,
      creation: { seconds: creationS, perS: s.subscriptions / creationS },
      burst: { swaps: numbers.length, sendS: (lastSent - startedAt) / 1000, ackP50Ms: ack.p50Ms, ackP99Ms: ack.p99Ms, retried: burst.retried, failed: burst.failed },
      ...summary,
      cpuPct, peakRssMb, attempts,
      redisCommandsPerDelivery: summary.distinctEvents > 0 ? commands.total / summary.distinctEvents : NaN,
      redisCommands: commands.byCommand,
      malformed: sinks.malformed,
      ...(target.storeMode !== undefined ? { storeMode: target.storeMode } : {}),
    };
  } finally {
    redis.disconnect();
    await target?.stop();
    await sinks.close();
  }
}
