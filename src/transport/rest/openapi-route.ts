import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Request, Response, Router } from 'express';
import { repoRoot } from '../../repo-paths';

export const OPENAPI_PATH = '/openapi.yaml';

export function defaultOpenapiFile(): string {
  return join(repoRoot(), 'docs', 'openapi.yaml');
}

/**
 * Serves the partner API's OpenAPI document (docs/openapi.yaml). The file is read once, when
 * the app is built: a missing document stops the start, and no request touches the disk.
 */
export function openapiRoute(file: string = defaultOpenapiFile()): Router {
  const document = readFileSync(file, 'utf8');
  const router = Router();
  router.get(OPENAPI_PATH, (_req: Request, res: Response) => {
    res.setHeader('Content-Type', 'application/yaml; charset=utf-8');
    res.setHeader('Cache-Control', 'public, max-age=300');
    res.send(document);
  });
  return router;
}
