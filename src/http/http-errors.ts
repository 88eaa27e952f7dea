import { DomainError } from '../errors/domain-errors';

/** HTTP-only conditions: they exist because of the transport, not the domain. */
export class MethodNotAllowedError extends DomainError {
  readonly kind = 'METHOD_NOT_ALLOWED';
}

export class RouteNotFoundError extends DomainError {
  readonly kind = 'ROUTE_NOT_FOUND';
}
