import { ErrorRequestHandler, Request, Response } from 'express';
import { STATUS_CODES } from 'node:http';
import { DomainError } from '../../errors/domain-errors';
import { ErrorLogger, logUnexpected } from '../../errors/error-lookup';

/** A field at fault, named, never with its value (it may be a secret). */
export interface FieldProblem {
  field: string;
  message: string;
}

/** RFC 9457 problem types of the admin API beyond a plain status (docs/console.md lists them). */
export type ProblemType = 'about:blank' | 'urn:verify-customer:admin:csrf' | 'urn:verify-customer:admin:no-redis' | 'urn:verify-customer:admin:sign-in';

/** A failure of the admin transport itself (authentication, roles, CSRF, a missing store). */
export class AdminProblem extends Error {
  constructor(readonly status: number, readonly detail: string, readonly type: ProblemType = 'about:blank', readonly errors?: FieldProblem[]) {
    super(detail);
    this.name = 'AdminProblem';
  }
}

export function sendProblem(res: Response, status: number, detail: string, type: ProblemType = 'about:blank', errors?: FieldProblem[]): void {
  const body: Record<string, unknown> = { type, title: STATUS_CODES[status] ?? 'Error', status, detail };
  if (errors && errors.length > 0) body.errors = errors;
  if (status === 401) res.setHeader('WWW-Authenticate', 'Bearer realm="verify-customer-admin"');
  res.status(status).type('application/problem+json').send(JSON.stringify(body));
}

/**
 * Every failure under /admin/api/v1 as application/problem+json (RFC 9457): the admin's own
 * problems, the domain's errors by their catalog status (src/errors/error-catalog.ts) with
 * their reason (which never names a secret), anything else a logged 500 saying nothing more.
 */
export function problemHandler(logger: ErrorLogger): ErrorRequestHandler {
  return (err: unknown, req: Request, res: Response, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof AdminProblem) {
      sendProblem(res, err.status, err.detail, err.type, err.errors);
      return;
    }
    if (err instanceof DomainError) {
      if (err.retryAfterS !== undefined) res.setHeader('Retry-After', String(err.retryAfterS));
      const status = err.httpStatus;
      if (status >= 500) logUnexpected(logger, err, { correlator: res.locals.correlator as string | undefined, path: req.path });
      sendProblem(res, status, err.reason || (STATUS_CODES[status] ?? 'Error'));
      return;
    }
    logUnexpected(logger, err, { correlator: res.locals.correlator as string | undefined, path: req.path });
    sendProblem(res, 500, 'The request failed on our side; the log has the details under this request\'s correlator.');
  };
}
