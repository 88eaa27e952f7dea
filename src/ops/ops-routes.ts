import { NextFunction, Request, Response, Router } from 'express';
import { Registry } from 'prom-client';
import { StoreMode } from '../verification/ports/state-store';

export interface OpsRoutesDeps {
  registry: Registry;
  storeMode(): StoreMode;
  upstreams(): Record<string, string>;
  isShuttingDown(): boolean;
  /** Where audit records go: file, postgres, off, or degraded (spooled locally). */
  auditMode?(): string;
  /** The partner registry: file, database, stale (database unreachable: the last load serves) or unloaded. */
  registryState?(): string;
}

/** Probes and scrapes must never be answered from a proxy's cache. */
function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  next();
}

/**
 * Liveness, readiness and metrics (CONTRACT §4).
 * - /healthz: the process answers HTTP. Nothing else: restarting a live process because
 *   Redis or an upstream is down would not fix them and would drop in-flight requests.
 * - /readyz: 200 while the instance should get traffic, with `degraded` when it serves from
 *   process memory because Redis is unreachable; 503 only while shutting down. An open
 *   upstream breaker is reported but keeps the instance ready: every instance sees the same
 *   upstream, and a ready instance still serves cached KYC answers and honest 9999s. A
 *   database registry not loaded yet (its database unreachable since start) answers 503
 *   `not_ready`: the instance would refuse every partner; one serving its last load is `degraded`.
 * - /metrics: Prometheus text format.
 */
export function opsRoutes(deps: OpsRoutesDeps): Router {
  const router = Router();
  router.get('/healthz', noStore, (_req: Request, res: Response) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', noStore, (_req: Request, res: Response) => {
    const store = deps.storeMode();
    const upstreams = deps.upstreams();
    const audit = deps.auditMode?.();
    const registry = deps.registryState?.();
    if (deps.isShuttingDown()) {
      res.status(503).json({ status: 'shutting_down', store, upstreams, audit, registry });
      return;
    }
    if (registry === 'unloaded') {
      res.status(503).json({ status: 'not_ready', store, upstreams, audit, registry });
      return;
    }
    // A degraded audit trail (records spooled locally) keeps the instance ready, as a degraded store does.
    const degraded = store === 'degraded' || audit === 'degraded' || registry === 'stale';
    res.json({ status: degraded ? 'degraded' : 'ready', store, upstreams, audit, registry });
  });
  router.get('/metrics', noStore, async (_req: Request, res: Response) => {
    const body = await deps.registry.metrics();
    res.setHeader('Content-Type', deps.registry.contentType);
    res.send(body);
  });
  return router;
}
