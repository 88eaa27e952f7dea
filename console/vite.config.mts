import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

/**
 * The operator's console (docs/console.md): built by `npm run build` into dist/admin-console,
 * which the service serves at /admin/ on the admin listener (src/admin-console/console-routes.ts).
 * No plugin: Vite's own transformer compiles Preact's JSX (tsconfig's jsxImportSource).
 */
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/admin/',
  publicDir: false,
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../dist/admin-console', import.meta.url)),
    emptyOutDir: true,
    // The page's CSP allows no inline script or style: everything goes to a file.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
  },
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
});
