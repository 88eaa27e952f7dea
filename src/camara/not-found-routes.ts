import { RequestHandler } from 'express';
import { Logger } from '../observability/logger';
import { RouteNotFoundError } from '../http/http-errors';
import { Routes } from '../http/routes';
import { camaraErrorHandler } from './camara-error-handler';

/** Where a CAMARA API's request handler records the root it serves (`/sim-swap/v2`). */
const API_ROOT = Symbol('camara api root');

type RootedHandler = RequestHandler & { [API_ROOT]?: string };

/** Marks `handler` as serving the CAMARA API under `root`, for withCamaraNotFound to find. */
export function servesCamaraRoot<H extends RequestHandler>(handler: H, root: string): H {
  return Object.assign(handler, { [API_ROOT]: root });
}

/** `/sim-swap/v2/check` → `sim-swap`: an API's name is its path's first segment. */
function firstSegment(path: string): string {
  const lower = path.toLowerCase();
  const end = lower.indexOf('/', 1);
  return end < 0 ? lower.slice(1) : lower.slice(1, end);
}

/**
 * `mounted`, then the CAMARA 404 for every path under a CAMARA API's name that none of them
 * serves (CONTRACT §7): `/kyc-match/v1/match`, `/device-swap/v2/check`,
 * `/sim-swap-subscriptions/v0.4/…`, any method; ErrorInfo, never the legacy body. The names are
 * read from the routes mounted, so a later API is covered without a list to keep, and the 404
 * comes after all of them, so one version of an API never hides another.
 */
export function withCamaraNotFound(logger: Logger, mounted: Routes): Routes {
  const names = new Set<string>();
  for (const r of mounted) {
    const root = (r as RootedHandler)[API_ROOT];
    if (root !== undefined) names.add(firstSegment(root));
  }
  const routes: RequestHandler = (req, res, next) => {
    if (!names.has(firstSegment(req.path))) {
      next();
      return;
    }
    res.locals.interface = 'camara';
    throw new RouteNotFoundError('no such resource: unknown version or operation');
  };
  return [...mounted, routes, camaraErrorHandler(logger)];
}
