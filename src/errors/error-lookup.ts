import {
  BearerErrorCode, CAMARA_API_OVERRIDES, CamaraOverrides, CatalogRow, ERROR_CATALOG, FailureCode, OAuthErrorCode,
} from './error-catalog';
import { BadRequestError, DomainError, PayloadTooLargeError, UNEXPECTED, describe } from './domain-errors';

/*
 * The lookups every transport makes in the error catalog: one function per interface, each
 * answering what that interface shows, or `unexpected` when the catalog has nothing for the
 * failure (not a DomainError, or a row without that interface's column). An unexpected
 * failure is answered 500 in the interface's shape and logged once with its cause
 * (logUnexpected); never guessed into a 400.
 */

/** A failure the catalog knows: the domain error and its row. */
export interface CatalogEntry {
  error: DomainError;
  row: CatalogRow;
}

/** The catalog row of a failure; undefined for anything that is not a DomainError with a row. */
export function catalogEntryOf(err: unknown): CatalogEntry | undefined {
  if (!(err instanceof DomainError)) return undefined;
  const row = (ERROR_CATALOG as Partial<Record<string, CatalogRow>>)[err.kind];
  return row && { error: err, row };
}

/**
 * Express and its body parsers raise http-errors (a `status` property): a 4xx is the caller's
 * fault, so a domain condition; anything else stays as it is, unexpected.
 */
export function fromHttpError(err: unknown): unknown {
  if (err instanceof DomainError) return err;
  const status = (err as { status?: unknown } | null)?.status;
  if (typeof status !== 'number' || status < 400 || status >= 500) return err;
  const options = { cause: err };
  return status === 413
    ? new PayloadTooLargeError('body too large', undefined, options)
    : new BadRequestError('request could not be read', undefined, options);
}

/**
 * What every interface's answer to a failure has: `unexpected` when the catalog has no answer
 * for it (the 500 to log), and the Retry-After the error asks for.
 */
export interface AnsweredFailure {
  unexpected: boolean;
  retryAfterS?: number;
}

/** What the legacy REST routes answer (CONTRACT §1.2, §1.3). */
export interface LegacyFailure extends AnsweredFailure {
  status: number;
  code: FailureCode;
  desc: string;
  /** The stored answer of an earlier request with the same txn_id (`Idempotent-Replayed`). */
  replayed: boolean;
}

export function legacyFailureOf(err: unknown): LegacyFailure {
  return lookUp<CatalogRow['legacy'], LegacyFailure>(err, (entry) => entry.row.legacy,
    ([code, status], e): LegacyFailure => ({ status, code, desc: describe(code, e.reason), replayed: e.replayed, unexpected: false }),
    { status: UNEXPECTED.httpStatus, code: UNEXPECTED.code, desc: UNEXPECTED.desc, replayed: false, unexpected: true });
}

/** A CAMARA ErrorInfo's status and code and the reason it may show; see camara/error-info.ts. */
export interface CamaraLookup extends AnsweredFailure {
  status: number;
  code: string;
  reason: string;
}

/** `api`: the CAMARA API answering, whose overrides (CAMARA_API_OVERRIDES) win over the row. */
export function camaraLookup(err: unknown, api?: string, overrides: CamaraOverrides = CAMARA_API_OVERRIDES): CamaraLookup {
  return lookUp<NonNullable<CatalogRow['camara']>, CamaraLookup>(err, (entry) => (api === undefined ? undefined : overrides[api]?.[entry.error.kind]) ?? entry.row.camara,
    ([status, code], e): CamaraLookup => ({ status, code, reason: e.reason, unexpected: false }),
    { status: 500, code: 'INTERNAL', reason: '', unexpected: true });
}

/** The token endpoint's RFC 6749 §5.2 answer. */
export interface OAuthFailure extends AnsweredFailure {
  status: number;
  error: OAuthErrorCode;
  description: string;
}

export function oauthFailureOf(err: unknown): OAuthFailure {
  return lookUp<NonNullable<CatalogRow['oauth']>, OAuthFailure>(err, (entry) => entry.row.oauth,
    ([error, status], e): OAuthFailure => ({ status, error, description: e.reason, unexpected: false }),
    { status: 500, error: 'server_error', description: 'unexpected error', unexpected: true });
}

/** The code and desc a GraphQL error carries in its extensions (CONTRACT §2). */
export interface GraphqlFailure extends AnsweredFailure {
  code: FailureCode;
  desc: string;
  /** REST's status, for a request refused before Apollo runs. */
  status: number;
}

export function graphqlFailureOf(err: unknown): GraphqlFailure {
  return lookUp<readonly [FailureCode, number], GraphqlFailure>(err, (entry) => [entry.row.graphql, entry.row.legacy[1]],
    ([code, status], e): GraphqlFailure => ({ code, desc: describe(code, e.reason), status, unexpected: false }),
    { code: UNEXPECTED.code, desc: UNEXPECTED.desc, status: UNEXPECTED.httpStatus, unexpected: true });
}

/** What a Bearer challenge names for a failure about the access token; undefined for any other failure. */
export interface BearerFailure {
  error: BearerErrorCode;
  reason: string;
  /** The scopes that would do, when the error knows them. */
  scopes?: readonly string[];
}

export function bearerFailureOf(err: unknown): BearerFailure | undefined {
  const entry = catalogEntryOf(err);
  const error = entry?.row.bearer;
  if (!entry || !error) return undefined;
  const scopes = (entry.error as { scopes?: unknown }).scopes;
  return Array.isArray(scopes) ? { error, reason: entry.error.reason, scopes: scopes.map(String) } : { error, reason: entry.error.reason };
}

/**
 * One interface's lookup: the row's `column` for the failure, as `shown` renders it with the
 * error's Retry-After; `unexpected` when the failure has no row or the row no such column.
 */
function lookUp<C, F extends AnsweredFailure>(
  err: unknown, column: (entry: CatalogEntry) => C | undefined, shown: (column: C, error: DomainError) => F, unexpected: F,
): F {
  const entry = catalogEntryOf(err);
  const found = entry === undefined ? undefined : column(entry);
  if (entry === undefined || found === undefined) return unexpected;
  const failure = shown(found, entry.error);
  if (entry.error.retryAfterS !== undefined) failure.retryAfterS = entry.error.retryAfterS;
  return failure;
}

/** The little of a logger an unexpected failure needs (pino's Logger fits). */
export interface ErrorLogger {
  error(fields: object, message: string): void;
}

/** Where it happened: the request's correlator and path (a GraphQL field's path). */
export interface UnexpectedContext {
  correlator: unknown;
  path?: unknown;
}

/**
 * The one log line of a failure the catalog does not know: the error itself, its stack and its
 * `cause` chain (the logger's err serializer), for the operator; the caller saw only a 500.
 */
export function logUnexpected(logger: ErrorLogger, err: unknown, where: UnexpectedContext, message = 'unexpected error'): void {
  logger.error({ ...where, err }, message);
}
