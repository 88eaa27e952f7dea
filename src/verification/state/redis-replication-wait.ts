import calculateSlot from 'cluster-key-slot';
import { Cluster } from 'ioredis';
import { Clock } from '../../kernel/clock';
import { ReplicationWaitOutcome } from '../ports/metrics';
import { RedisClient } from './redis-connection';
import { RedisUnavailableError } from './redis-unavailable';

export interface ReplicationWaitOptions {
  /** Replicas that must hold a txn_id write before it counts (REDIS_WAIT_REPLICAS). */
  replicas: number;
  /** The longest WAIT blocks (REDIS_WAIT_TIMEOUT_MS); fits in the command timeout (config.ts). */
  timeoutMs: number;
  /** Told after every waited-for write: acknowledged in time, short, or sent without WAIT (skipped). */
  onWait: (outcome: ReplicationWaitOutcome) => void;
}

/**
 * After a WAIT comes back short, writes on that connection skip WAIT this long, then try again.
 * A master without its replica cannot make a write durable anyway, and every WAIT would hold
 * its connection (and every command queued behind it) for the whole timeout.
 */
export const SHORT_WAIT_BACKOFF_MS = 1000;

type Settle = (outcome: ReplicationWaitOutcome) => void;

/** One connection's WAITs: at most one in flight; writes answered meanwhile share the next one. */
interface ConnectionGroup {
  inFlight: boolean;
  next: Array<{ settle: Settle; fail: (err: unknown) => void }>;
  /** Until when writes skip WAIT (after a short one); 0 = not skipping. */
  skipUntilMs: number;
}

/**
 * Redis WAIT after txn_id writes (docs/redis.md, "Replicated txn_id records"), as a group
 * commit per connection. WAIT blocks its connection, and Redis runs a connection's commands in
 * order: every command queued behind a WAIT waits for it, whatever key or partner it is for.
 * So each connection (a standalone server's one, or a cluster master's) has at most one WAIT
 * in flight, and every write answered while it is out shares the next one: WAIT covers all the
 * writes its connection made before it. A burst (a partner's peak, the outage journal
 * draining) costs one replica round trip per batch, not one per write or per partner.
 *
 * On a cluster the WAIT goes in a pipeline behind an EXISTS of a key the batch wrote, so
 * ioredis sends it to the master that owns that key's slot, on that master's one connection;
 * the group is that master's (the slot's owner in the client's slot table).
 *
 * Errors are not absorbed: a WAIT that fails (connection lost, timeout) fails the write's
 * caller, and the fallback store journals the record and settles it on Redis once it is back
 * (fallback-state-store.ts), so a record whose master died before replicating it is rewritten
 * on the promoted replica. A WAIT answered by a new master cannot vouch for a write on the old
 * one: the old connection's commands fail or time out within REDIS_COMMAND_TIMEOUT_MS, long
 * before a replica is promoted (cluster-node-timeout).
 *
 * Fewer replicas than asked within the timeout is reported (short, then skipped for a second)
 * and the request goes on.
 */
export class ReplicationWait {
  private readonly groups = new Map<string, ConnectionGroup>();

  constructor(private readonly opts: ReplicationWaitOptions, private readonly clock: Clock) {}

  /** Runs write (to `key`), then waits for its replication; resolves to the write's reply. */
  async after<T>(client: RedisClient, key: string, write: () => Promise<T>): Promise<T> {
    const value = await write();
    const group = this.group(connectionOf(client, key));
    if (group.skipUntilMs > this.clock.nowMs()) {
      this.opts.onWait('skipped');
      return value;
    }
    const outcome = await new Promise<ReplicationWaitOutcome>((settle, fail) => {
      group.next.push({ settle, fail });
      if (!group.inFlight) this.flush(client, key, group);
    });
    this.opts.onWait(outcome);
    return value;
  }

  private group(connection: string): ConnectionGroup {
    let group = this.groups.get(connection);
    if (!group) {
      group = { inFlight: false, next: [], skipUntilMs: 0 };
      this.groups.set(connection, group);
    }
    return group;
  }

  /**
   * One WAIT for every write waiting on this connection; when it returns, the next batch's,
   * unless it came back short: then the writes that queued meanwhile skip it too.
   */
  private flush(client: RedisClient, key: string, group: ConnectionGroup): void {
    const batch = group.next;
    group.next = [];
    group.inFlight = true;
    client.pipeline().exists(key).wait(this.opts.replicas, this.opts.timeoutMs).exec().then((replies) => {
      const waited = replies?.[1];
      if (!waited) throw new RedisUnavailableError('Redis pipeline was discarded');
      if (waited[0]) throw waited[0];
      const acked = Number(waited[1]) >= this.opts.replicas;
      if (!acked) group.skipUntilMs = this.clock.nowMs() + SHORT_WAIT_BACKOFF_MS;
      for (const w of batch) w.settle(acked ? 'acked' : 'short');
    }).catch((err: unknown) => {
      for (const w of batch) w.fail(err);
    }).finally(() => {
      group.inFlight = false;
      if (group.next.length === 0) return;
      if (group.skipUntilMs > this.clock.nowMs()) {
        const skipped = group.next;
        group.next = [];
        for (const w of skipped) w.settle('skipped');
        return;
      }
      this.flush(client, key, group);
    });
  }
}

/**
 * Which connection a key's commands use: a standalone client has one; on a cluster, the
 * master that owns the key's slot (ioredis's slot table; every key with one hash tag shares it).
 */
function connectionOf(client: RedisClient, key: string): string {
  if (!(client instanceof Cluster)) return '';
  return client.slots[calculateSlot(key)]?.[0] ?? '';
}
