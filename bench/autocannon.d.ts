/** The part of autocannon@8's programmatic API the bench uses (the package ships no types). */
declare module 'autocannon' {
  import { EventEmitter } from 'node:events';

  interface RequestSpec {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
  }

  interface Request extends RequestSpec {
    /** Called before every request is sent: returns the request to send. */
    setupRequest?: (req: RequestSpec, context: Record<string, unknown>) => RequestSpec;
  }

  interface Options {
    url: string;
    connections?: number;
    pipelining?: number;
    duration?: number;
    amount?: number;
    overallRate?: number;
    timeout?: number;
    method?: string;
    headers?: Record<string, string>;
    requests?: Request[];
    setupClient?: (client: unknown) => void;
    excludeErrorStats?: boolean;
  }

  interface Result {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number; average: number; max: number };
    errors: number;
    timeouts: number;
    non2xx: number;
    duration: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  interface Instance extends EventEmitter {
    stop(): void;
    on(event: 'response', listener: (client: unknown, statusCode: number, resBytes: number, responseTime: number) => void): this;
    on(event: 'done', listener: (result: Result) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  function autocannon(opts: Options, cb?: (err: Error | null, result: Result) => void): Instance;
  export = autocannon;
}
