import { domainError } from '../errors/domain-errors';

/** HTTP-only conditions: they exist because of the transport, not the domain. */
export class MethodNotAllowedError extends domainError('METHOD_NOT_ALLOWED') {}

export class RouteNotFoundError extends domainError('ROUTE_NOT_FOUND') {}
