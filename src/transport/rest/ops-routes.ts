import { Request, Response, Router } from 'express';
import { Registry } from 'prom-client';
import { StoreMode } from '../../domain/ports/state-store';

export interface OpsRoutesDeps {
  registry: Registry;
  storeMode(): StoreMode;
  upstreams(): Record<string, string>;
  isShuttingDown(): boolean;
}

/** Liveness, readiness and metrics (CONTRACT §4). */
export function opsRoutes(deps: OpsRoutesDeps): Router {
  const router = Router();
  router.get('/healthz', (_req: Request, res: Response) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', (_req: Request, res: Response) => {
    const store = deps.storeMode();
    if (deps.isShuttingDown()) {
      res.status(503).json({ status: 'shutting_down', store, upstreams: deps.upstreams() });
      return;
    }
    res.json({ status: store === 'degraded' ? 'degraded' : 'ready', store, upstreams: deps.upstreams() });
  });
  router.get('/metrics', async (_req: Request, res: Response) => {
    res.setHeader('Content-Type', deps.registry.contentType);
    res.send(await deps.registry.metrics());
  });
  return router;
}
