import { ConfigError, loadConfig } from './config/config';
import { demoCurlCommands } from './ops/demo-commands';
import { demoCamaraCommands, demoTokenCommand } from './oauth/demo-token-command';
import { createLogger } from './observability/logger';
import { requireSupportedNode } from './kernel/runtime-check';
import { startServer } from './server';

/** Process entry: config, start, signals. Everything else is built in server.ts. */
async function main(): Promise<void> {
  requireSupportedNode('verify-customer');
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`verify-customer: ${err.message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const logger = createLogger(config.LOG_LEVEL);
  const running = await startServer(config, { logger });
  // Signals are handled before the service says it is listening: a supervisor that stops it as
  // soon as it reads that line gets the graceful stop, not the default kill.
  process.on('SIGHUP', () => {
    running.reloadPartners();
    void running.reloadSigningKeys(); // logs its own outcome
  });
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      // A second SIGTERM or SIGINT (an impatient Ctrl-C, an operator) skips the rest of the
      // readiness delay; the drain itself still lets in-flight requests finish.
      logger.info({ signal }, 'second signal: draining now');
      running.drainNow();
      return;
    }
    stopping = true;
    logger.info({ signal }, 'shutting down');
    running.close().then(
      () => { logger.info('stopped'); process.exit(0); },
      (err) => { logger.error({ err }, 'shutdown failed'); process.exit(1); },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  const demo = !config.PARTNERS_FILE && running.partners.all().find((p) => p.enabled && p.signature === 'md5');
  if (demo) {
    process.stdout.write(`\nverify-customer is up on ${running.url} (demo partners, simulator fixture).\nTry, in another shell:\n\n`);
    for (const cmd of demoCurlCommands(running.url, demo)) process.stdout.write(`${cmd}\n\n`);
    if (running.oauthIssuer) {
      process.stdout.write('CAMARA: an access token from the built-in issuer, then calls that use it:\n\n');
      for (const cmd of [demoTokenCommand(running.url, demo), ...demoCamaraCommands(running.url, demo)]) process.stdout.write(`${cmd}\n\n`);
    }
  }
  // Said on stdout too, whatever LOG_LEVEL: an operator starting it by hand must see where the probes went.
  if (running.adminUrl) process.stdout.write(`verify-customer admin port (/healthz, /readyz, /metrics, /internal/events/*): ${running.adminUrl}\n`);
  // The console's address and, in development, its one-time login link.
  for (const line of running.consoleBanner) process.stdout.write(`${line}\n`);
  // Last: the line a supervisor (and the tests) wait for comes once everything above is done.
  const probes = running.adminUrl ?? running.url;
  logger.info({ url: running.url, ...(running.adminUrl ? { adminUrl: running.adminUrl } : {}), store: `see ${probes}/readyz` }, 'verify-customer listening');
}

main().catch((err) => {
  process.stderr.write(`verify-customer: failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
