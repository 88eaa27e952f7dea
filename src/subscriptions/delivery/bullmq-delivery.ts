import { DelayedError, Job, Queue, UnrecoverableError, Worker } from 'bullmq';
import { Cluster, Redis } from 'ioredis';
import { UpstreamUnavailableError } from '../../errors/domain-errors';
import { ClosingCluster } from '../../verification/state/closing-cluster';
import { EventDelivery } from '../ports/event-delivery';
import { WebhookMetrics, WebhookQueueStats } from '../ports/webhook-metrics';
import { Delivery } from '../domain/subscription';
import { Logger } from '../../observability/logger';
import { AttemptOutcome, SinkSender } from './http-sink-sender';
import { RetrySettings, SinkSlots, nextDelayMs } from './retry-policy';
import { CredentialCipher } from './sink-credential-cipher';
import { BullConnectionOptions, WEBHOOK_QUEUE, queuePrefix } from './webhook-queue';

/** What a job holds: the delivery and when it was first accepted (start of the retry window). */
export interface WebhookJob extends Delivery {
  acceptedMs: number;
}

/**
 * BullMQ's own connection (it must not share the state store's fail-fast client): commands
 * wait through a Redis restart instead of failing (maxRetriesPerRequest null, as BullMQ
 * requires for workers). `failFast` is for the producer side, where a request is waiting.
 */
export function bullConnection(opts: BullConnectionOptions, failFast = false): Redis | Cluster {
  const common = failFast
    ? { maxRetriesPerRequest: 1, enableOfflineQueue: true, connectTimeout: 2000 }
    : { maxRetriesPerRequest: null };
  if (opts.clusterNodes) {
    const nodes = opts.clusterNodes.split(',').map((hp) => {
      const i = hp.lastIndexOf(':');
      return { host: hp.slice(0, i), port: Number(hp.slice(i + 1)) };
    });
    return new ClosingCluster(nodes, { redisOptions: common, ...(failFast ? {} : { maxRetriesPerRequest: null }) });
  }
  if (!opts.url) throw new Error('bullConnection needs a url or cluster nodes');
  return new Redis(opts.url, common);
}

export interface BullDeliveryDeps {
  connection: BullConnectionOptions;
  send: SinkSender;
  retry: RetrySettings;
  /** Jobs one instance works on at once, across sinks. */
  concurrency: number;
  sinkConcurrency: number;
  /** Jobs one instance works on at once for one partner, all its sinks together. */
  partnerConcurrency: number;
  /** Longest wait on close for in-flight attempts and BullMQ's own shutdown. */
  closeGraceMs: number;
  /** WEBHOOK_LOCK_MS: BullMQ's job lock; a stalled job (dead worker) is re-queued after it lapses. */
  lockMs: number;
  /** Seals each job's credential (a job is stored in Redis, and kept as a dead letter); opened just before the attempt. */
  cipher: CredentialCipher;
  /** WEBHOOK_DEAD_LETTER_RETENTION_S and _MAX: BullMQ drops older failed jobs as later ones fail. */
  deadLetterRetentionS: number;
  deadLetterMax: number;
  metrics: WebhookMetrics;
  logger: Logger;
}

const SLOT_WAIT_MS = 50;
/** More than any window allows: the window, not the count, ends retries. */
const MAX_ATTEMPTS = 1_000_000;

/**
 * Durable delivery on Redis with BullMQ: an event is a job (id = CloudEvent id) stored before
 * the swap is acknowledged; any instance's worker delivers it; a crashed worker's job is taken
 * over when its lock lapses. Retries back off with jitter until WEBHOOK_RETRY_WINDOW_S, then
 * the job stays in BullMQ's failed set: the dead letters (CLI: webhooks dead-letters, replay).
 */
export class BullDelivery implements EventDelivery {
  private readonly queue: Queue<WebhookJob>;
  private readonly worker: Worker<WebhookJob>;
  private readonly slots: SinkSlots;
  private readonly partnerSlots: SinkSlots;
  private lastStats: WebhookQueueStats = { pending: 0, oldestPendingAgeS: 0, deadLetters: 0 };
  private readonly connections: (Redis | Cluster)[];

  constructor(private readonly deps: BullDeliveryDeps) {
    const prefix = queuePrefix(deps.connection.keyPrefix);
    this.slots = new SinkSlots(deps.sinkConcurrency);
    this.partnerSlots = new SinkSlots(deps.partnerConcurrency);
    // Passed-in connections are BullMQ's "shared" ones: it never closes them, close() does.
    this.connections = [bullConnection(deps.connection, true), bullConnection(deps.connection)];
    this.queue = new Queue<WebhookJob>(WEBHOOK_QUEUE, { connection: this.connections[0], prefix });
    this.worker = new Worker<WebhookJob>(WEBHOOK_QUEUE, (job, token) => this.process(job, token), {
      connection: this.connections[1],
      prefix,
      concurrency: deps.concurrency,
      lockDuration: deps.lockMs,
      stalledInterval: deps.lockMs,
      settings: {
        backoffStrategy: (attemptsMade: number, _type?: string, _err?: Error, job?: { data: WebhookJob }) => {
          const remaining = job ? job.data.acceptedMs + deps.retry.windowMs - Date.now() : deps.retry.windowMs;
          return nextDelayMs(attemptsMade, deps.retry, remaining);
        },
      },
    });
    // Connection errors repeat while Redis is away; BullMQ reconnects by itself.
    let lastLog = 0;
    const onError = (err: Error) => {
      if (Date.now() - lastLog < 5000) return;
      lastLog = Date.now();
      deps.logger.warn({ err: err.message }, 'webhook queue: Redis error');
    };
    this.queue.on('error', onError);
    this.worker.on('error', onError);
    deps.metrics.trackWebhookQueue(() => this.stats());
  }

  async enqueue(deliveries: Delivery[]): Promise<void> {
    const acceptedMs = Date.now();
    try {
      await this.addAll(deliveries, acceptedMs);
    } catch (err) {
      // Not stored: the caller must not acknowledge the swap (503; the reporter retries).
      throw new UpstreamUnavailableError('webhook queue unavailable', undefined, { cause: err });
    }
  }

  private async addAll(deliveries: Delivery[], acceptedMs: number): Promise<void> {
    await this.queue.addBulk(deliveries.map((d) => ({
      name: d.event.type,
      data: { ...this.sealed(d), acceptedMs },
      opts: {
        jobId: d.event.id,
        attempts: MAX_ATTEMPTS,
        backoff: { type: 'custom' },
        removeOnComplete: { age: 3600, count: 10_000 },
        removeOnFail: { age: this.deps.deadLetterRetentionS, count: this.deps.deadLetterMax },
      },
    })));
  }

  private async process(job: Job<WebhookJob>, token?: string): Promise<void> {
    const origin = SinkSlots.origin(job.data.sink);
    const partner = job.data.partner;
    const slot = this.slots.tryTake(origin);
    if (!slot || !this.partnerSlots.tryTake(partner)) {
      if (slot) this.slots.release(origin);
      // Busy sink or partner: hand the slot back to other sinks' and partners' jobs instead of waiting in it.
      await job.moveToDelayed(Date.now() + SLOT_WAIT_MS + Math.floor(Math.random() * SLOT_WAIT_MS), token);
      throw new DelayedError();
    }
    const started = performance.now();
    let outcome;
    try {
      outcome = await this.send(job.data);
    } finally {
      this.slots.release(origin);
      this.partnerSlots.release(partner);
    }
    if (outcome === 'withdrawn') {
      this.deps.metrics.webhookDelivery('partner_withdrawn');
      await this.followUp(job.data);
      return;
    }
    this.deps.metrics.webhookAttempt(outcome, (performance.now() - started) / 1000);
    if (outcome === 'delivered') {
      this.deps.metrics.webhookDelivery('delivered');
      await this.followUp(job.data);
      return;
    }
    const remaining = job.data.acceptedMs + this.deps.retry.windowMs - Date.now();
    if (remaining <= 0 || outcome === 'refused') {
      this.deps.metrics.webhookDelivery('dead_lettered');
      this.deps.logger.warn({ eventId: job.data.event.id, subscriptionId: job.data.subscriptionId, outcome, attempts: job.attemptsMade + 1 }, 'webhook dead-lettered');
      await this.followUp(job.data);
      throw new UnrecoverableError(outcome);
    }
    throw new Error(outcome);
  }

  /**
   * Queues the event that waited for this one, before this job completes: a worker dying in
   * between leaves this job to be retaken (delivered again, at least once) and the follow-up
   * is the same job id, added once. Failing to queue it fails this attempt for the same reason.
   */
  private async followUp(d: WebhookJob): Promise<void> {
    if (d.followUp) await this.addAll([d.followUp], Date.now());
  }

  /** The delivery as a job holds it: its credential sealed, and its follow-up's (same sink, same credential) too. */
  private sealed(d: Delivery): Delivery {
    const out: Delivery = d.credential ? { ...d, credential: this.deps.cipher.seal(d.credential, d.subscriptionId) } : { ...d };
    if (d.followUp) out.followUp = this.sealed(d.followUp);
    return out;
  }

  /** A credential that does not open (another key, another subscription's) can never be sent: refused, dead-lettered. */
  private send(data: WebhookJob): Promise<AttemptOutcome> {
    let d: Delivery;
    try {
      d = data.credential ? { ...data, credential: this.deps.cipher.open(data.credential, data.subscriptionId) } : data;
    } catch {
      return Promise.resolve('refused');
    }
    return this.deps.send(d);
  }

  private async stats(): Promise<WebhookQueueStats> {
    try {
      const counts = await this.queue.getJobCounts('waiting', 'delayed', 'active', 'prioritized', 'failed');
      const oldest = await this.queue.getJobs(['waiting', 'delayed', 'active', 'prioritized'], 0, 99, true);
      const first = oldest.reduce((min, j) => Math.min(min, j.data.acceptedMs), Infinity);
      this.lastStats = {
        pending: counts.waiting + counts.delayed + counts.active + counts.prioritized,
        oldestPendingAgeS: first === Infinity ? 0 : Math.max(0, (Date.now() - first) / 1000),
        deadLetters: counts.failed,
      };
    } catch {
      // Redis away: the last known figures, rather than a failed scrape.
    }
    return this.lastStats;
  }

  /**
   * Lets in-flight attempts finish (each bounded by its timeout), then cuts the connections:
   * with Redis gone BullMQ's own close would wait for it forever. Jobs cut mid-attempt are
   * retaken by another instance when their lock lapses.
   */
  async close(): Promise<void> {
    const graceful = (async () => {
      await this.worker.close();
      await this.queue.close();
    })();
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => { timer = setTimeout(resolve, this.deps.closeGraceMs); });
    const finished = await Promise.race([graceful.then(() => true, () => true), deadline.then(() => false)]);
    clearTimeout(timer);
    if (!finished) {
      // BullMQ's own (blocking) connections, which a cut-short close leaves reconnecting.
      // Not awaited: with Redis gone these never settle; starting them is what cuts the sockets.
      void Promise.allSettled([this.worker.disconnect(), this.queue.disconnect()]);
    }
    for (const c of this.connections) c.disconnect();
  }
}
