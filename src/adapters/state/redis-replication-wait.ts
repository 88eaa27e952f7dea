import { Clock } from '../../domain/ports/clock';
import { ReplicationWaitOutcome } from '../../domain/ports/metrics';
import { RedisClient } from './redis-connection';

export interface ReplicationWaitOptions {
  /** Replicas that must hold a txn_id write before it counts (REDIS_WAIT_REPLICAS). */
  replicas: number;
  /** The longest WAIT blocks (REDIS_WAIT_TIMEOUT_MS); below the command timeout (config.ts). */
  timeoutMs: number;
  /** Told after every txn_id write: acknowledged in time, short, or sent without WAIT (skipped). */
  onWait: (outcome: ReplicationWaitOutcome) => void;
}

/**
 * After a WAIT comes back short, writes to that hash slot skip WAIT this long, then try again.
 * A master without its replica cannot make a write durable anyway, and every WAIT would hold
 * its connection (and every command queued behind it) for the whole timeout.
 */
export const SHORT_WAIT_BACKOFF_MS = 1000;
/** Hash tags (partners) tracked at once; beyond it the memory starts over. */
const MAX_TAGS = 10_000;

interface Waiter {
  resolve: (acked: boolean) => void;
  reject: (err: unknown) => void;
}

/** One hash tag's WAITs: at most one in flight; writes answered meanwhile share the next one. */
interface TagGroup {
  inFlight: boolean;
  next: Waiter[];
  /** Until when writes skip WAIT (after a short one); 0 = not skipping. */
  skipUntilMs: number;
}

/**
 * Redis WAIT after txn_id writes (docs/redis.md, "Replicated txn_id records"), as a group
 * commit: a write is sent as usual; once answered, it waits for a WAIT sent after it on the
 * same connection (WAIT covers every write its connection made before it). One WAIT per hash
 * tag is in flight at a time, and every write answered while it is out shares the next one:
 * WAIT blocks its connection, so a burst of writes (a journal draining after an outage, a
 * partner's peak) costs one blocked round trip per batch, not one per write.
 *
 * All of a partner's txn_ids share its hash tag, hence a slot and a node: the WAIT goes in a
 * pipeline behind an EXISTS of a key with that tag, which ioredis routes to the tag's node.
 * If the connection is lost between write and WAIT, the WAIT fails or times out within
 * REDIS_COMMAND_TIMEOUT_MS, long before a replica can be promoted (cluster-node-timeout): a
 * WAIT answered by a new master never vouches for a write made on the old one.
 *
 * Fewer replicas than asked within the timeout is reported and the request goes on: refusing
 * writes then is Redis's own switch, min-replicas-to-write.
 */
export class ReplicationWait {
  private readonly groups = new Map<string, TagGroup>();

  constructor(private readonly opts: ReplicationWaitOptions, private readonly clock: Clock) {}

  /** Runs write (to `key`, whose hash tag is `tag`), then waits for its replication; resolves to its reply. */
  async after<T>(client: RedisClient, tag: string, key: string, write: () => Promise<T>): Promise<T> {
    const value = await write();
    const group = this.group(tag);
    if (group.skipUntilMs > this.clock.nowMs()) {
      this.opts.onWait('skipped');
      return value;
    }
    const acked = await new Promise<boolean>((resolve, reject) => {
      group.next.push({ resolve, reject });
      if (!group.inFlight) this.flush(client, tag, key, group);
    });
    this.opts.onWait(acked ? 'acked' : 'short');
    return value;
  }

  private group(tag: string): TagGroup {
    let group = this.groups.get(tag);
    if (!group) {
      if (this.groups.size >= MAX_TAGS) this.pruneIdle();
      group = { inFlight: false, next: [], skipUntilMs: 0 };
      this.groups.set(tag, group);
    }
    return group;
  }

  /** Sends one WAIT for every write waiting on this tag; when it returns, the next batch's. */
  private flush(client: RedisClient, tag: string, key: string, group: TagGroup): void {
    const batch = group.next;
    group.next = [];
    group.inFlight = true;
    client.pipeline().exists(key).wait(this.opts.replicas, this.opts.timeoutMs).exec().then((replies) => {
      const waited = replies?.[1];
      if (!waited) throw new Error('Redis pipeline was discarded');
      if (waited[0]) throw waited[0];
      const acked = Number(waited[1]) >= this.opts.replicas;
      if (!acked) group.skipUntilMs = this.clock.nowMs() + SHORT_WAIT_BACKOFF_MS;
      for (const w of batch) w.resolve(acked);
    }).catch((err: unknown) => {
      for (const w of batch) w.reject(err);
    }).finally(() => {
      group.inFlight = false;
      if (group.next.length > 0) this.flush(client, tag, key, group);
    });
  }

  private pruneIdle(): void {
    const now = this.clock.nowMs();
    for (const [tag, g] of this.groups) {
      if (!g.inFlight && g.next.length === 0 && g.skipUntilMs <= now) this.groups.delete(tag);
    }
  }
}
