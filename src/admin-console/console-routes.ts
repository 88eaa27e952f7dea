import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import express, { RequestHandler, Response, Router } from 'express';

/**
 * The operator's console (CONTRACT §12): the single-page app `npm run build` puts in
 * dist/admin-console (console/vite.config.ts), served at /admin/ on the admin listener only.
 * Every asset comes from here: the Content-Security-Policy lets the page load nothing from
 * anywhere else, run no inline script and be framed by nobody.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "base-uri 'none'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "form-action 'self'",
].join('; ');

/** Vite names every built asset after its content hash: a new build is a new URL, so a year is safe. */
const HASHED_ASSET_CACHE = 'public, max-age=31536000, immutable';
/** index.html names the current hashes: the browser asks again each time (a 304 costs nothing). */
const ENTRY_CACHE = 'no-cache';

/** dist/admin-console beside dist/src (this file is dist/src/admin-console/console-routes.js once built). */
export function defaultConsoleRoot(): string {
  return resolve(__dirname, '..', '..', 'admin-console');
}

export interface ConsoleRouteOptions {
  /** The built console; default dist/admin-console. */
  root?: string;
  /** Where the admin API lives: never answered with the console's page. */
  apiPrefix?: string;
}

function consoleHeaders(res: Response, cache: string): void {
  res.setHeader('Content-Security-Policy', CONSOLE_CSP);
  res.setHeader('Cache-Control', cache);
}

/**
 * GET and HEAD under /admin/: a built file as it is; /admin/assets/* that does not exist, 404;
 * any other path the app's own (a bookmark of /admin/partners/x), index.html, which routes it.
 * Requests under `apiPrefix` pass through untouched.
 */
export function consoleRoutes(options: ConsoleRouteOptions = {}): Router {
  const root = options.root ?? defaultConsoleRoot();
  const apiPrefix = options.apiPrefix ?? '/api/';
  const index = join(root, 'index.html');
  const router = Router();
  const files = express.static(root, {
    index: false,
    dotfiles: 'ignore',
    etag: true,
    lastModified: true,
    fallthrough: true,
    redirect: false,
    setHeaders: (res, path) => consoleHeaders(res, path.includes(`${join(root, 'assets')}/`) ? HASHED_ASSET_CACHE : ENTRY_CACHE),
  });
  const entry: RequestHandler = (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path.startsWith('/assets/')) return next();
    if (!existsSync(index)) {
      consoleHeaders(res, 'no-store');
      res.status(503).type('text/plain').send('The console is not built: run "npm run build".\n');
      return;
    }
    consoleHeaders(res, ENTRY_CACHE);
    res.sendFile(index, { etag: true, lastModified: true, headers: { 'Content-Type': 'text/html; charset=utf-8' } }, (err) => {
      if (err) next(err);
    });
  };
  router.use('/admin', (req, res, next) => {
    if (req.path.startsWith(apiPrefix)) return next('router');
    // The app's own URLs all start /admin/; a router mounted there cannot tell /admin from /admin/.
    if (req.originalUrl === '/admin' || req.originalUrl.startsWith('/admin?')) return res.redirect(308, '/admin/');
    // index.html only through the fallback, so that it always carries the entry's headers.
    if (req.path === '/' || req.path === '/index.html') return entry(req, res, next);
    files(req, res, (err?: unknown) => (err ? next(err) : entry(req, res, next)));
  });
  return router;
}
