import { Job, Queue } from 'bullmq';
import { WebhookJob, bullConnection } from './bullmq-delivery';
import { BullConnectionOptions, WEBHOOK_QUEUE, queuePrefix } from './webhook-queue';

/** A dead-lettered event as an operator sees it: no credential, the sink's origin only. */
export interface DeadLetter {
  jobId: string;
  eventId: string;
  type: string;
  subscriptionId: string;
  partner: string;
  sinkOrigin: string;
  attempts: number;
  lastOutcome: string;
  acceptedAt: string;
  deadAt: string | null;
}

function originOf(sink: string): string {
  try { return new URL(sink).origin; } catch { return '(invalid)'; }
}

function view(job: Job<WebhookJob>): DeadLetter {
  return {
    jobId: String(job.id),
    eventId: job.data.event.id,
    type: job.data.event.type,
    subscriptionId: job.data.subscriptionId,
    partner: job.data.partner,
    sinkOrigin: originOf(job.data.sink),
    attempts: job.attemptsMade,
    lastOutcome: job.failedReason,
    acceptedAt: new Date(job.data.acceptedMs).toISOString(),
    deadAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
  };
}

/** The operator's view of BullMQ's failed set (the dead letters) on the service's Redis. */
export class DeadLetters {
  private readonly connection;
  private readonly queue: Queue<WebhookJob>;

  constructor(opts: BullConnectionOptions) {
    this.connection = bullConnection(opts, true);
    this.queue = new Queue<WebhookJob>(WEBHOOK_QUEUE, { connection: this.connection, prefix: queuePrefix(opts.keyPrefix) });
  }

  async list(): Promise<DeadLetter[]> {
    const jobs = await this.queue.getFailed(0, -1);
    return jobs.filter((j): j is Job<WebhookJob> => j !== undefined && j !== null).map(view);
  }

  /**
   * Puts dead letters back in the queue with a fresh retry window; the CloudEvent (and its id)
   * is unchanged, so a sink that got an earlier attempt can still drop the duplicate.
   * The ids actually replayed (unknown or no longer failed ones are skipped).
   */
  async replay(jobIds: string[] | 'all'): Promise<string[]> {
    const jobs = jobIds === 'all'
      ? await this.queue.getFailed(0, -1)
      : await Promise.all(jobIds.map((id) => this.queue.getJob(id)));
    const done: string[] = [];
    for (const job of jobs) {
      if (!job || !(await job.isFailed())) continue;
      await job.updateData({ ...job.data, acceptedMs: Date.now() });
      await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
      done.push(String(job.id));
    }
    return done;
  }

  /** Removes a dead letter for good; false when there is no such dead letter. */
  async drop(jobId: string): Promise<boolean> {
    const job = await this.queue.getJob(jobId);
    if (!job || !(await job.isFailed())) return false;
    await job.remove();
    return true;
  }

  /** How many dead letters wait. */
  async count(): Promise<number> {
    return this.queue.getFailedCount();
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.connection.disconnect();
  }
}
