import { DomainError } from '../errors/domain-errors';

/** HTTP-only conditions: they exist because of the transport, not the domain. */
export class MethodNotAllowedError extends DomainError {
  readonly code = '11111';
  readonly httpStatus = 405;
}

export class RouteNotFoundError extends DomainError {
  readonly code = '11111';
  readonly httpStatus = 404;
}
