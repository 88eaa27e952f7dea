import { auditText } from './audit-text';
import { domainError } from '../errors/domain-errors';
import { legacyFailureOf } from '../errors/error-lookup';
import { AuditContext, AuditMatchSummary, AuditRecord, AuditTrail } from './ports/audit-trail';
import { Clock } from '../kernel/clock';
import { Partner } from '../partners/partners';
import { uuidV7 } from '../kernel/uuid-v7';

/** The audit store cannot take records and AUDIT_FAIL_CLOSED is set: refuse rather than answer unrecorded. */
export class AuditUnavailableError extends domainError('AUDIT_UNAVAILABLE') {}

/** One verification as the audit sees it: who, through what, about which number. */
export interface AuditSubject {
  partner: Partner;
  context: AuditContext;
  /** The registry operation, then `.` and the CAMARA operation for a CAMARA call (`kyc`, `sim_swap.check`): audit-operation.ts. */
  operation: string;
  /** Normalised international form. */
  msisdn: string;
  txnId?: string;
  /** The request this verification is one of, when one request may ask about several numbers (GraphQL). */
  request?: AuditRequest;
}

/**
 * One request that may ask about many numbers (a GraphQL document: a batch, or aliased fields).
 * A refusal of the request (permission, rate limit) is recorded once for it, never once per
 * number or field: otherwise one refused request writes hundreds of records and a single
 * partner can fill the trail with numbers it was never told anything about (CONTRACT §2).
 */
export interface AuditRequest {
  refusalRecorded: boolean;
}

/** HTTP statuses of a refusal decided before any lookup: permission and rate limit. */
const REFUSAL_STATUSES: ReadonlySet<number> = new Set([403, 429]);

export interface AuditRecorderDeps {
  trail: AuditTrail;
  clock: Clock;
  /** AUDIT_FAIL_CLOSED: answer 503 while the trail is unhealthy. */
  failClosed: boolean;
}

const SUCCESS = { code: '00000', httpStatus: 200 } as const;

/**
 * The one way every interface records an answered verification (CONTRACT §9): each
 * transport wraps its call to the verification service in track(), which writes exactly one
 * record per call, success or failure, replays marked as such.
 */
export class AuditRecorder {
  constructor(private readonly deps: AuditRecorderDeps) {}

  /** Fail-closed gate; a no-op unless AUDIT_FAIL_CLOSED is set and the trail is unhealthy. */
  admit(): void {
    if (this.deps.failClosed && !this.deps.trail.healthy()) {
      throw new AuditUnavailableError('audit trail unavailable', 1);
    }
  }

  /**
   * Runs one verification and records its outcome once; `replayed` reads a success's replay
   * flag, `match` a KYC Match success's summary (names and counts, never values).
   */
  async track<T>(subject: AuditSubject, work: () => Promise<T>, replayed: (value: T) => boolean = () => false,
    match?: (value: T) => AuditMatchSummary): Promise<T> {
    this.admit();
    let value: T;
    try {
      value = await work();
    } catch (err) {
      await this.failed(subject, err);
      throw err;
    }
    // The answer leaves only once its record would survive a crash of the process.
    await this.write(subject, SUCCESS, replayed(value), match?.(value));
    return value;
  }

  /**
   * Records a failure decided outside track(). A refusal (403, 429) of a subject's request is
   * recorded for its first field only. Resolves once the record is journaled; never rejects.
   */
  failed(subject: AuditSubject, err: unknown): Promise<void> {
    if (err instanceof AuditUnavailableError) return Promise.resolve();
    const failure = legacyFailureOf(err);
    if (subject.request !== undefined && REFUSAL_STATUSES.has(failure.status) && !this.firstRefusal(subject.request)) return Promise.resolve();
    return this.write(subject, { code: failure.code, httpStatus: failure.status }, failure.replayed);
  }

  /**
   * A request refused as a whole before any number was looked up (a batch over its permission,
   * rate limit or burst): one record for the request, whatever the failure's status.
   */
  refused(subject: AuditSubject & { request: AuditRequest }, err: unknown): Promise<void> {
    if (err instanceof AuditUnavailableError || !this.firstRefusal(subject.request)) return Promise.resolve();
    const failure = legacyFailureOf(err);
    return this.write(subject, { code: failure.code, httpStatus: failure.status }, failure.replayed);
  }

  /** True the first time only: marks the request's refusal as recorded. */
  private firstRefusal(request: AuditRequest): boolean {
    if (request.refusalRecorded) return false;
    request.refusalRecorded = true;
    return true;
  }

  private write(s: AuditSubject, outcome: { code: string; httpStatus: number }, replayed: boolean, match?: AuditMatchSummary): Promise<void> {
    const timeMs = this.deps.clock.nowMs();
    const purpose = s.context.purpose ?? s.partner.purpose;
    // Text that came from a caller or an external issuer is made safe here, where it enters the record.
    const entry: AuditRecord = {
      id: uuidV7(timeMs),
      timeMs,
      partner: auditText(s.partner.name),
      interface: s.context.interface,
      operation: s.operation,
      msisdn: s.msisdn,
      code: outcome.code,
      httpStatus: outcome.httpStatus,
      txnId: s.txnId === undefined ? null : auditText(s.txnId),
      correlator: auditText(s.context.correlator),
      purpose: purpose === undefined ? null : auditText(purpose),
      replayed,
    };
    if (match !== undefined) entry.match = { ...match, compared: [...match.compared] };
    return this.deps.trail.record(entry);
  }
}
