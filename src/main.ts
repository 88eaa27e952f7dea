import { requireSupportedNode } from './kernel/runtime-check';

/*
 * Process entry. The Node.js version is checked before anything else is loaded: imports are
 * hoisted, and on Node 20 loading the service (undici among its dependencies) crashes with a
 * TypeError before a check placed among them could say why. So this file imports only the
 * dependency-free check, and requires the service after it.
 */
requireSupportedNode('verify-customer');

// eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only once the version is known to be supported
const { runService } = require('./run-service') as typeof import('./run-service');

runService().catch((err: unknown) => {
  process.stderr.write(`verify-customer: failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
