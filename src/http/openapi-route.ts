import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Request, Response, Router } from 'express';
import { repoRoot } from '../kernel/repo-paths';

export const OPENAPI_PATH = '/openapi.yaml';
/** The CAMARA operations and the OAuth token endpoint (docs/openapi-camara.yaml). */
export const CAMARA_OPENAPI_PATH = '/openapi-camara.yaml';

export function defaultOpenapiFile(): string {
  return join(repoRoot(), 'docs', 'openapi.yaml');
}

export function defaultCamaraOpenapiFile(): string {
  return join(repoRoot(), 'docs', 'openapi-camara.yaml');
}

/**
 * Serves an OpenAPI document (the partner API's docs/openapi.yaml by default). The file is read once, when
 * the app is built: a missing document stops the start, and no request touches the disk.
 */
export function openapiRoute(file: string = defaultOpenapiFile(), path: string = OPENAPI_PATH): Router {
  const document = readFileSync(file, 'utf8');
  const router = Router();
  router.get(path, (_req: Request, res: Response) => {
    res.setHeader('Content-Type', 'application/yaml; charset=utf-8');
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.send(document);
  });
  return router;
}
