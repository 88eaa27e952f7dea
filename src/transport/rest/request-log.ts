import { Request, RequestHandler, Response } from 'express';
import { maskMsisdn } from '../../domain/msisdn';
import { Operation } from '../../domain/operation';
import { Partner } from '../../domain/ports/partners';
import { Logger } from '../../observability/logger';

/** Per-request observations the transport makes (the Prometheus module implements it). */
export interface RequestMetrics {
  request(operation: Operation | 'none', iface: 'rest' | 'graphql', code: string, status: number, seconds: number): void;
}

const QUIET_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** One structured line per request, with correlator, partner name and masked msisdn; never a secret. */
export function requestLog(logger: Logger, metrics: RequestMetrics): RequestHandler {
  return (req: Request, res: Response, next) => {
    const started = process.hrtime.bigint();
    res.once('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const locals = res.locals as { operation?: Operation; interface?: 'graphql'; code?: string; correlator?: string; partner?: Partner; msisdn?: string };
      const code = locals.code ?? (res.statusCode < 400 ? '00000' : '11111');
      const iface = locals.interface ?? 'rest';
      if (locals.operation || iface === 'graphql') metrics.request(locals.operation ?? 'none', iface, code, res.statusCode, seconds);
      const level = QUIET_PATHS.has(req.path) ? 'debug' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      logger[level]({
        correlator: locals.correlator,
        method: req.method,
        path: req.path,
        interface: iface,
        partner: locals.partner?.name,
        operation: locals.operation,
        msisdn: locals.msisdn ? maskMsisdn(locals.msisdn) : undefined,
        code,
        status: res.statusCode,
        ms: Math.round(seconds * 10000) / 10,
      }, 'request');
    });
    next();
  };
}
