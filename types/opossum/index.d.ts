// opossum 10 publishes no type declarations, and @types/opossum (8.x) describes opossum 8. This
// declares exactly the part of opossum 10's API (node_modules/opossum/lib/circuit.js) that
// src/verification/upstream/http-upstream.ts uses; tsconfig.json's `paths` points `opossum` here.
// Add a member only after checking it in that source; test/infra/opossum-types.test.ts checks
// every declared member against the installed package.
import { EventEmitter } from 'node:events';

declare namespace CircuitBreaker {
  interface Options {
    /** Milliseconds before a call counts as timed out; false: never (the action has its own deadline). Default 10000. */
    timeout?: number | false;
    /** Failure percentage in the rolling window at which the circuit opens. Default 50. */
    errorThresholdPercentage?: number;
    /** Calls needed in the rolling window before it may open. Default 0. */
    volumeThreshold?: number;
    /** Length of the rolling statistics window, ms. Default 10000. */
    rollingCountTimeout?: number;
    /** Buckets the rolling window is split into. Default 10. */
    rollingCountBuckets?: number;
    /** Milliseconds an open circuit waits before it lets one call try (half-open). Default 30000. */
    resetTimeout?: number;
  }
}

declare class CircuitBreaker<TArgs extends unknown[] = unknown[], TResult = unknown> extends EventEmitter {
  constructor(action: (...args: TArgs) => Promise<TResult>, options?: CircuitBreaker.Options);
  /** Calls the action through the circuit; rejects at once while it is open. */
  fire(...args: TArgs): Promise<TResult>;
  readonly opened: boolean;
  readonly halfOpen: boolean;
  readonly closed: boolean;
  /** Stops its timers and refuses every later call. */
  shutdown(): void;
  on(event: 'open' | 'close' | 'shutdown', listener: () => void): this;
  on(event: 'halfOpen', listener: (resetTimeoutMs: number) => void): this;
}

export = CircuitBreaker;
