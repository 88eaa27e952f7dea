import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { signedQuery } from './signing';

/*
 * An open-loop load driver for the partner operations: requests leave at a fixed rate
 * whatever the service does, so a slow or failing service meets the same traffic a real
 * partner population would send, rather than a polite closed loop that waits for it.
 * Loopback only. Every reply is checked for shape here; callers can add their own check
 * (the fault suite adds docs/openapi.yaml).
 */

export type LoadOperation = 'kyc' | 'sim_swap';

export interface Credentials {
  apiKey: string;
  secret: string;
}

export interface LoadRequest {
  op: LoadOperation;
  msisdn: string;
  credentials: Credentials;
  /** Sign without sending `timestamp`, as seed clients do (CONTRACT §1.5). */
  omitTimestamp?: boolean;
  /** Free label the caller groups replies by ("warm", "cold", "new-partner"). */
  tag: string;
}

/** What became of one request. */
export interface Sample {
  seq: number;
  op: LoadOperation;
  msisdn: string;
  tag: string;
  apiKey: string;
  /** Epoch ms when the request was handed to the socket pool. */
  sentAt: number;
  /** Epoch ms when the answer (or the failure) arrived. */
  endedAt: number;
  ms: number;
  /** 'answered': a reply in the right shape; 'malformed': a reply, but wrong; 'no-answer': none. */
  outcome: 'answered' | 'malformed' | 'no-answer';
  status?: number;
  /** The contract code of the reply (00000, 11111, 9999), when it had one. */
  code?: string;
  desc?: string;
  /** The success result, for comparing answers across phases. */
  result?: Record<string, string>;
  retryAfter?: string;
  /** Why a reply counts as malformed. */
  problems?: string[];
  /** The socket error for a request with no answer (ECONNREFUSED, ECONNRESET, TIMEOUT). */
  error?: string;
  /** The reply's Connection header (keep-alive, close). */
  connection?: string;
}

export interface SteadyLoadOptions {
  baseUrl: string;
  ratePerSecond: number;
  /** Bounds: the load stops at whichever comes first, or at stop(). */
  maxRequests: number;
  maxDurationMs: number;
  next(seq: number): LoadRequest;
  /** Statuses the contract allows for the condition under test; any other counts as malformed. */
  allowedStatuses?: readonly number[];
  /** Further checks of a reply; each string returned is a problem that makes it malformed. */
  validate?: (op: LoadOperation, status: number, headers: http.IncomingHttpHeaders, body: unknown, text: string) => string[];
  /** A request without an answer by then counts as no answer (error TIMEOUT). */
  requestTimeoutMs?: number;
  maxSockets?: number;
  /** Keep every sample in memory (tests); the soak passes false and aggregates in onSample. */
  keepSamples?: boolean;
  onSample?(s: Sample): void;
}

export interface LoadSummary {
  sent: number;
  /** "200 00000" → count, over well-formed and malformed replies alike. */
  answers: Record<string, number>;
  malformed: number;
  noAnswer: number;
  slowestMs: number;
  durationMs: number;
}

export interface SteadyLoad {
  readonly samples: Sample[];
  sent(): number;
  inFlight(): number;
  /** Resolves once the bound is reached and every request sent has ended. */
  readonly done: Promise<LoadSummary>;
  /** Stops sending; resolves once every request sent has ended. */
  stop(): Promise<LoadSummary>;
}

const TICK_MS = 5;
const SIG_REFRESH_MS = 1000;
const DESC = /^(Error Process|Unexpected system Error)(: .+)?$/;
const BOOL = new Set(['true', 'false']);
const OFFSET_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/;

export function startSteadyLoad(opts: SteadyLoadOptions): SteadyLoad {
  const target = new URL(opts.baseUrl);
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(target.hostname)) throw new Error(`steady load is for loopback only, not ${target.hostname}`);
  const allowed = new Set(opts.allowedStatuses ?? [200, 503]);
  const timeoutMs = opts.requestTimeoutMs ?? 10_000;
  const agent = new http.Agent({ keepAlive: true, maxSockets: opts.maxSockets ?? 256 });
  const samples: Sample[] = [];
  const summary: LoadSummary = { sent: 0, answers: {}, malformed: 0, noAnswer: 0, slowestMs: 0, durationMs: 0 };
  const queries = new Map<string, { q: string; at: number }>();
  let inFlight = 0;
  let stopped = false;
  const startedAt = performance.now();
  let finish!: () => void;
  const allEnded = new Promise<void>((resolve) => { finish = resolve; });

  // One signature per partner per second, as a client would sign: the same seconds-timestamp all second.
  const queryFor = (c: Credentials, omitTimestamp: boolean): string => {
    const now = Date.now();
    const key = `${omitTimestamp ? '-' : '+'}${c.apiKey}`;
    const cached = queries.get(key);
    if (cached && now - cached.at < SIG_REFRESH_MS) return cached.q;
    const q = signedQuery(c, { omitTimestamp });
    queries.set(key, { q, at: now });
    return q;
  };

  const record = (s: Sample): void => {
    if (s.status !== undefined) {
      const key = `${s.status} ${s.code ?? '-'}`;
      summary.answers[key] = (summary.answers[key] ?? 0) + 1;
      summary.slowestMs = Math.max(summary.slowestMs, s.ms);
    }
    if (s.outcome === 'malformed') summary.malformed++;
    if (s.outcome === 'no-answer') summary.noAnswer++;
    if (opts.keepSamples !== false) samples.push(s);
    opts.onSample?.(s);
    inFlight--;
    if (stopped && inFlight === 0) finish();
  };

  const send = (seq: number): void => {
    const r = opts.next(seq);
    const body = JSON.stringify({ txn_id: freshTxnId(), msisdn: r.msisdn });
    const sentAt = Date.now();
    const t0 = performance.now();
    const head = { seq, op: r.op, msisdn: r.msisdn, tag: r.tag, apiKey: r.credentials.apiKey, sentAt };
    let settled = false;
    const settle = (rest: Omit<Sample, keyof typeof head | 'endedAt' | 'ms'>): void => {
      if (settled) return;
      settled = true;
      record({ ...head, endedAt: Date.now(), ms: Math.round(performance.now() - t0), ...rest });
    };
    inFlight++;
    summary.sent++;
    const req = http.request({
      agent, host: target.hostname.replace(/^\[|\]$/g, ''), port: target.port, method: 'POST',
      path: `/eai/verify_customer/query/${r.op}?${queryFor(r.credentials, r.omitTimestamp === true)}`,
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', (err) => settle({ outcome: 'no-answer', error: errorCode(err) }));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        const judged = judge(r, res.statusCode ?? 0, res.headers, text, allowed, opts.validate);
        settle(res.headers.connection === undefined ? judged : { ...judged, connection: res.headers.connection });
      });
    });
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error('no answer in time'), { code: 'TIMEOUT' })));
    req.on('error', (err) => settle({ outcome: 'no-answer', error: errorCode(err) }));
    req.end(body);
  };

  let issued = 0;
  const timer = setInterval(() => {
    const elapsed = performance.now() - startedAt;
    if (elapsed >= opts.maxDurationMs) return end();
    const due = Math.min(opts.maxRequests, Math.floor((elapsed * opts.ratePerSecond) / 1000) + 1);
    while (issued < due) send(issued++);
    if (issued >= opts.maxRequests) end();
  }, TICK_MS);

  function end(): void {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    summary.durationMs = Math.round(performance.now() - startedAt);
    if (inFlight === 0) finish();
  }

  const done = allEnded.then(() => {
    agent.destroy();
    return summary;
  });
  return {
    samples,
    sent: () => summary.sent,
    inFlight: () => inFlight,
    done,
    stop: () => {
      end();
      return done;
    },
  };
}

let txnSeq = 0;
const RUN = `${process.pid.toString(36)}${Date.now().toString(36)}`;
/** A txn_id never used before in any run: 1–25 of [A-Za-z0-9._:-]. */
function freshTxnId(): string {
  txnSeq++;
  return `L${RUN}.${txnSeq.toString(36)}`;
}

function errorCode(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  if (e.code) return e.code;
  return /socket hang up/.test(e.message) ? 'ECONNRESET' : e.message;
}

/** The shape the contract gives this operation and status (CONTRACT §1.1–§1.3); problems make it malformed. */
function judge(
  r: LoadRequest, status: number, headers: http.IncomingHttpHeaders, text: string,
  allowed: Set<number>, validate: SteadyLoadOptions['validate'],
): Pick<Sample, 'outcome' | 'status' | 'code' | 'desc' | 'result' | 'retryAfter' | 'problems'> {
  const problems: string[] = [];
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    problems.push(`body is not JSON: ${text.slice(0, 80)}`);
  }
  if (!/^application\/json\b/.test(headers['content-type'] ?? '')) problems.push(`content-type ${headers['content-type']}`);
  if (!allowed.has(status)) problems.push(`status ${status} not allowed here`);
  const retryAfter = headers['retry-after'];
  let code: string | undefined;
  let desc: string | undefined;
  let result: Record<string, string> | undefined;
  if (isObject(body)) {
    if (status === 200) {
      code = String(body.code);
      desc = String(body.desc);
      if (body.code !== '00000' || body.desc !== 'Success' || !isObject(body.result)) problems.push('200 without the success body');
      else {
        result = body.result as Record<string, string>;
        problems.push(...successProblems(r, result));
      }
    } else {
      if (r.op === 'sim_swap' && Object.keys(body).join() !== 'response') problems.push('SIM swap failure not wrapped in {"response":…}');
      const failure = r.op === 'kyc' ? body : body.response;
      if (!isObject(failure) || Object.keys(failure).sort().join() !== 'code,desc') problems.push('failure body is not exactly {code, desc}');
      else {
        code = String(failure.code);
        desc = String(failure.desc);
        const wanted = status >= 500 ? '9999' : '11111';
        if (failure.code !== wanted) problems.push(`code ${String(failure.code)} with HTTP ${status} (wanted ${wanted})`);
        if (typeof failure.desc !== 'string' || !DESC.test(failure.desc)) problems.push(`desc ${JSON.stringify(failure.desc)}`);
        if (status === 503 && !retryAfter) problems.push('503 without Retry-After');
      }
    }
  } else if (body !== undefined) {
    problems.push('body is not a JSON object');
  }
  if (validate) problems.push(...validate(r.op, status, headers, body, text));
  const out: ReturnType<typeof judge> = { outcome: problems.length ? 'malformed' : 'answered', status };
  if (code !== undefined) out.code = code;
  if (desc !== undefined) out.desc = desc;
  if (result) out.result = result;
  if (retryAfter !== undefined) out.retryAfter = retryAfter;
  if (problems.length) out.problems = problems;
  return out;
}

function successProblems(r: LoadRequest, result: Record<string, unknown>): string[] {
  const problems: string[] = [];
  if (result.msisdn !== r.msisdn) problems.push(`result.msisdn ${String(result.msisdn)} is not the number sent (${r.msisdn})`);
  const keys = Object.keys(result).sort().join();
  if (r.op === 'kyc') {
    if (keys !== 'is_active,is_prepaid,is_valid,msisdn') problems.push(`KYC result keys ${keys}`);
    for (const k of ['is_active', 'is_prepaid', 'is_valid']) if (!BOOL.has(result[k] as string)) problems.push(`${k} is not "true"/"false"`);
  } else if (result.sim_swapped === 'true') {
    if (keys !== 'msisdn,sim_swapped,sim_swapped_dt') problems.push(`SIM swap result keys ${keys}`);
    if (!OFFSET_DATE_TIME.test(String(result.sim_swapped_dt))) problems.push(`sim_swapped_dt ${String(result.sim_swapped_dt)}`);
  } else if (result.sim_swapped !== 'false' || keys !== 'msisdn,sim_swapped') {
    problems.push(`SIM swap result ${JSON.stringify(result)}`);
  }
  return problems;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
