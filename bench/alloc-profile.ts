import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LoadResult } from './load-worker';
import type { MeasuredWindow } from './scenario-runner';

/**
 * --alloc-profile: V8's sampling heap profiler in the service under test, over the inspector
 * (the service runs with --inspect on 127.0.0.1 only). Unlike `node --heap-prof`, it keeps the
 * samples of objects the minor and major GC have already collected, so the profile is the
 * allocation rate (what drives GC time), not what is still live at the end.
 *
 * The DevTools protocol is a request/response map over one WebSocket, written here on Node's
 * global WebSocket rather than taking a dependency (chrome-remote-interface) for it.
 */

/** The inspector's only address: never anything but loopback. */
export const INSPECT_HOST = '127.0.0.1';

/** Bytes between samples on average: half V8's default of 32 KiB, as in the hand measurement the flag replaces. */
export const SAMPLING_INTERVAL = 16_384;

/** The parts of a sampling heap profile (HeapProfiler.stopSampling's `profile`, a .heapprofile) the summary reads. */
export interface HeapProfileNode {
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  /** Bytes allocated at this site, as V8 estimates them from its samples (each sample scaled up). */
  selfSize: number;
  id: number;
  children: HeapProfileNode[];
}
export interface HeapProfile {
  head: HeapProfileNode;
}

/** One sampled window as the bench records it in the profile directory's index (ALLOC_INDEX). */
export interface AllocWindow {
  scenario: string;
  /** 0-based, as the bench counts rounds. */
  round: number;
  /** The .heapprofile, relative to the index. */
  file: string;
  /** Requests the load generator answered in the sampled (measured) window. */
  requests: number;
  sampledS: number;
}

/** The index beside the .heapprofile files: which scenario and round each is, and its requests. */
export const ALLOC_INDEX = 'alloc-profiles.json';

interface Reply { id?: number; result?: unknown; error?: { message: string } }

/** One DevTools protocol session: send() resolves with the command's result or rejects with its error. */
class CdpSession {
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(result: unknown): void; reject(err: Error): void }>();

  private constructor(private readonly ws: WebSocket) {
    ws.addEventListener('message', (e) => {
      const msg = JSON.parse(String(e.data)) as Reply;
      const waiter = msg.id === undefined ? undefined : this.pending.get(msg.id);
      if (!waiter || msg.id === undefined) return; // an event: none is subscribed to
      this.pending.delete(msg.id);
      if (msg.error) waiter.reject(new Error(`inspector: ${msg.error.message}`));
      else waiter.resolve(msg.result);
    });
    ws.addEventListener('close', () => {
      for (const w of this.pending.values()) w.reject(new Error('inspector: connection closed'));
      this.pending.clear();
    });
  }

  /** Connects to the one target of a Node process started with --inspect=127.0.0.1:port. */
  static async connect(port: number): Promise<CdpSession> {
    const res = await fetch(`http://${INSPECT_HOST}:${port}/json/list`);
    const [target] = await res.json() as { webSocketDebuggerUrl?: string }[];
    const url = target?.webSocketDebuggerUrl;
    if (!url?.startsWith(`ws://${INSPECT_HOST}:${port}/`)) throw new Error(`inspector on port ${port} offers no local target (${String(url)})`);
    const ws = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      ws.addEventListener('open', () => resolve(), { once: true });
      ws.addEventListener('error', () => reject(new Error(`inspector: cannot connect to ${url}`)), { once: true });
    });
    return new CdpSession(ws);
  }

  /** Rejects after timeoutMs: a service that stopped answering must not hang the bench. */
  send<T = unknown>(method: string, params: Record<string, unknown> = {}, timeoutMs = 60_000): Promise<T> {
    const id = ++this.nextId;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`inspector: no answer to ${method} within ${timeoutMs} ms`));
      }, timeoutMs);
      const settle = () => clearTimeout(timer);
      this.pending.set(id, { resolve: (r) => { settle(); resolve(r as T); }, reject: (err) => { settle(); reject(err); } });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  close(): void {
    this.ws.close();
  }
}

/**
 * One sampled window: open() connects before the load starts, start() begins sampling when the
 * measured run does, stop() writes the profile to `file` and disconnects. The session is closed
 * after every window: a Node process with a debugger still attached waits for it before exiting.
 */
export class AllocSampler {
  private constructor(private readonly session: CdpSession) {}

  static async open(inspectPort: number): Promise<AllocSampler> {
    const session = await CdpSession.connect(inspectPort);
    try {
      await session.send('HeapProfiler.enable');
    } catch (err) {
      session.close();
      throw err;
    }
    return new AllocSampler(session);
  }

  async start(): Promise<void> {
    await this.session.send('HeapProfiler.startSampling', {
      samplingInterval: SAMPLING_INTERVAL, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true,
    });
  }

  async stop(file: string): Promise<HeapProfile> {
    try {
      const { profile } = await this.session.send<{ profile: HeapProfile }>('HeapProfiler.stopSampling');
      writeFileSync(file, JSON.stringify(profile));
      return profile;
    } finally {
      this.close();
    }
  }

  /** Disconnects without a profile (a window that failed); sampling stops with the session. */
  close(): void {
    this.session.close();
  }
}

/** A run's allocation profiles: one .heapprofile per sampled window in `dir`, and the index of them all. */
export class AllocProfiles {
  private readonly windows: AllocWindow[] = [];

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
  }

  /** Connects to the service now (before the load starts); the window samples from begin() to end(). */
  async window(scenario: string, round: number, inspectPort: number): Promise<MeasuredWindow> {
    const sampler = await AllocSampler.open(inspectPort);
    // begin() is called from the load generator's output: its failure is kept for end() to throw.
    let started: Promise<Error | undefined> | undefined;
    let startedMs = 0;
    return {
      begin: () => {
        startedMs = Date.now();
        started = sampler.start().then(() => undefined, (err: unknown) => (err instanceof Error ? err : new Error('inspector: HeapProfiler.startSampling failed')));
      },
      end: async (load: LoadResult) => {
        const failed = started ? await started : new Error('the load generator never reported its measured run');
        if (failed !== undefined) {
          sampler.close();
          throw failed;
        }
        const file = `${scenario.replace(/[^A-Za-z0-9+-]/g, '_')}-round${round + 1}.heapprofile`;
        await sampler.stop(join(this.dir, file));
        this.windows.push({ scenario, round, file, requests: load.requests, sampledS: (Date.now() - startedMs) / 1000 });
        writeFileSync(join(this.dir, ALLOC_INDEX), `${JSON.stringify(this.windows, null, 2)}\n`);
      },
      abort: () => sampler.close(),
    };
  }

  get sampled(): number {
    return this.windows.length;
  }
}
