import { Delivery } from '../domain/subscription';

/** Hands events to sinks, at least once (BullMQ on Redis, in-process in memory). */
export interface EventDelivery {
  /** Accepts the deliveries durably (on Redis) before resolving; in order per call. */
  enqueue(deliveries: Delivery[]): Promise<void>;
  close(): Promise<void>;
}

/** Checks a sink against CONTRACT §8 (scheme, resolved addresses). */
export interface SinkPolicy {
  /** Rejects with InvalidSinkError when the sink may not be used. */
  check(sink: string): Promise<void>;
}
