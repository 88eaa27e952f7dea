import { Request, RequestHandler, Response } from 'express';
import { maskMsisdn } from '../kernel/msisdn';
import { Operation } from '../partners/operation';
import { Partner } from '../partners/partners';
import { Logger } from '../observability/logger';

/** Per-request observations the transport makes (the Prometheus module implements it). */
export interface RequestMetrics {
  request(operation: Operation | 'none', iface: 'rest' | 'graphql' | 'camara', code: string, status: number, seconds: number): void;
}

/** What the routes leave in res.locals for this line; the GraphQL and CAMARA transports set `interface`. */
interface RequestLocals {
  operation?: Operation;
  interface?: 'graphql' | 'camara';
  code?: string;
  correlator?: string;
  partner?: Partner;
  msisdn?: string;
}

const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The result code when no handler recorded one (a framework error before our routes ran). */
function codeOf(status: number): string {
  if (status >= 500) return '9999';
  return status >= 400 ? '11111' : '00000';
}

/**
 * One structured line per request, with correlator, partner name (never its key), masked
 * msisdn, result code, status and latency. The path is logged without its query string,
 * which carries api_key and sig. Probes log at debug so they do not drown partner traffic;
 * 5xx log at warn so LOG_LEVEL=warn still shows every request the service failed.
 */
export function requestLog(logger: Logger, metrics: RequestMetrics): RequestHandler {
  return (req: Request, res: Response, next) => {
    const started = performance.now();
    // The line is built only when it is written: under LOG_LEVEL=warn a 200 costs one metric call.
    const fields = (seconds: number, locals: RequestLocals, iface: 'rest' | 'graphql' | 'camara', code: string) => ({
      correlator: locals.correlator,
      method: req.method,
      path: req.path,
      interface: iface,
      partner: locals.partner?.name,
      operation: locals.operation,
      msisdn: locals.msisdn ? maskMsisdn(locals.msisdn) : undefined,
      code,
      status: res.statusCode,
      replayed: res.getHeader('Idempotent-Replayed') === 'true' ? true : undefined,
      ms: Math.round(seconds * 10000) / 10,
    });
    res.once('finish', () => {
      const seconds = (performance.now() - started) / 1000;
      const locals = res.locals as RequestLocals;
      const iface: 'rest' | 'graphql' | 'camara' = locals.interface ?? 'rest';
      const status = res.statusCode;
      const code = locals.code ?? codeOf(status);
      // Only partner operations count: probes, scrapes and unknown routes would skew the SLO.
      if (locals.operation || iface === 'graphql') metrics.request(locals.operation ?? 'none', iface, code, status, seconds);
      const level = QUIET_PATHS.has(req.path) ? 'debug' : status >= 500 ? 'warn' : 'info';
      if (logger.isLevelEnabled(level)) logger[level](fields(seconds, locals, iface, code), 'request');
    });
    res.once('close', () => {
      // The caller went away before the answer was written: no status to count, but the line
      // is how an SRE finds partners whose client timeout is shorter than our upstream deadline.
      if (res.writableFinished || !logger.isLevelEnabled('info')) return;
      const locals = res.locals as RequestLocals;
      const line = fields((performance.now() - started) / 1000, locals, locals.interface ?? 'rest', '');
      logger.info({ ...line, status: undefined, code: undefined, aborted: true }, 'request aborted');
    });
    next();
  };
}
