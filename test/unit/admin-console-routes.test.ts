import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import express from 'express';
import { CONSOLE_CSP, consoleRoutes } from '../../src/admin-console/console-routes';

/** A built console as Vite lays it out: index.html and hashed assets. */
function builtConsole(): string {
  const root = mkdtempSync(join(tmpdir(), 'vc-console-'));
  mkdirSync(join(root, 'assets'));
  writeFileSync(join(root, 'index.html'), '<!doctype html><title>console</title><script type="module" src="/admin/assets/index-abc123.js"></script>');
  writeFileSync(join(root, 'assets', 'index-abc123.js'), 'console.log(1)');
  writeFileSync(join(root, 'assets', 'index-def456.css'), 'body{}');
  writeFileSync(join(root, 'assets', 'icon-aa11.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return root;
}

async function serve(root: string): Promise<{ url: string; close(): Promise<void> }> {
  const app = express();
  app.use(consoleRoutes({ root }));
  app.get('/admin/api/v1/session', (_req, res) => res.status(401).json({ title: 'api' }));
  app.use((_req, res) => res.status(404).send('not found'));
  const server: Server = await new Promise((ok) => { const s = app.listen(0, '127.0.0.1', () => ok(s)); });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((ok) => server.close(() => ok())) };
}

describe('the console static handler', () => {
  let svc: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => { svc = await serve(builtConsole()); });
  afterAll(async () => svc.close());

  it('when index.html is asked for, then it is HTML, revalidated each time, under a self-only CSP', async () => {
    const r = await fetch(`${svc.url}/admin/`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('cache-control')).toBe('no-cache');
    expect(r.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
    expect(CONSOLE_CSP).toMatch(/^default-src 'self'(;|$)/);
    expect(await r.text()).toContain('<title>console</title>');
  });

  it.each([
    ['index-abc123.js', 'text/javascript; charset=utf-8'],
    ['index-def456.css', 'text/css; charset=utf-8'],
    ['icon-aa11.svg', 'image/svg+xml'],
  ])('when the hashed asset %s is asked for, then it has its content type and a year-long immutable cache', async (file, type) => {
    const r = await fetch(`${svc.url}/admin/assets/${file}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe(type);
    expect(r.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(r.headers.get('content-security-policy')).toBe(CONSOLE_CSP);
  });

  it('when a page of the app is opened directly (a bookmark), then index.html answers it', async () => {
    const r = await fetch(`${svc.url}/admin/partners/acme-bank?x=1`);
    expect(r.status).toBe(200);
    expect(r.headers.get('cache-control')).toBe('no-cache');
    expect(await r.text()).toContain('<title>console</title>');
  });

  it('when an asset does not exist, then it is a 404, not the page', async () => {
    const r = await fetch(`${svc.url}/admin/assets/index-old999.js`);
    expect(r.status).toBe(404);
    expect(await r.text()).toBe('not found');
  });

  it('when the admin API is asked, then the console lets it through untouched', async () => {
    const r = await fetch(`${svc.url}/admin/api/v1/session`);
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ title: 'api' });
    expect((await fetch(`${svc.url}/admin/api/v1/nothing`)).status).toBe(404);
  });

  it('when /admin is asked without its slash, then it redirects to /admin/', async () => {
    const r = await fetch(`${svc.url}/admin`, { redirect: 'manual' });
    expect(r.status).toBe(308);
    expect(r.headers.get('location')).toBe('/admin/');
  });

  it('when a path tries to leave the console folder, then nothing outside it is served', async () => {
    for (const path of ['/admin/..%2f..%2fetc%2fpasswd', '/admin/assets/..%2f..%2f..%2fetc%2fpasswd']) {
      const r = await fetch(`${svc.url}${path}`);
      expect(await r.text()).not.toContain('root:');
    }
  });

  it('when a write reaches the console, then it is not answered with the page', async () => {
    const r = await fetch(`${svc.url}/admin/partners`, { method: 'POST' });
    expect(r.status).toBe(404);
  });
});

describe('the console static handler before a build', () => {
  it('when the console was never built, then /admin/ says how to build it (503)', async () => {
    const svc = await serve(mkdtempSync(join(tmpdir(), 'vc-console-empty-')));
    try {
      const r = await fetch(`${svc.url}/admin/`);
      expect(r.status).toBe(503);
      expect(await r.text()).toContain('npm run build');
    } finally {
      await svc.close();
    }
  });
});
