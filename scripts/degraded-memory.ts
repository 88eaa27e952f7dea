/*
 * Measures what one txn_id costs in degraded mode (Redis configured but unreachable): fills
 * the real state store (createStateStore, Redis on a port nothing listens on) with N claimed
 * and answered txn_ids and reads heapUsed after a full GC. docs/redis.md quotes its numbers.
 *
 *   npx tsc -p scripts/tsconfig.json && node --expose-gc dist/scripts/scripts/degraded-memory.js [N]
 */
import { createStateStore } from '../src/verification/state/create-state-store';
import { loadConfig } from '../src/config/config';
import { systemClock } from '../src/kernel/clock';
import { noopMetrics } from '../src/verification/ports/metrics';
import { createLogger } from '../src/observability/logger';

const gc = (globalThis as { gc?: () => void }).gc;

function heapUsed(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

async function main(): Promise<void> {
  if (!gc) throw new Error('run with node --expose-gc');
  const n = Number(process.argv[2] ?? 200_000);
  const config = loadConfig({ REDIS_URL: 'redis://127.0.0.1:1', LOG_LEVEL: 'silent', MEMORY_TXN_MAX_ENTRIES: String(n * 2) });
  const store = createStateStore(config, { clock: systemClock, logger: createLogger('silent'), metrics: noopMetrics });
  const deadline = Date.now() + 5000;
  while (store.mode() !== 'degraded' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  if (store.mode() !== 'degraded') throw new Error(`store is ${store.mode()}, expected degraded`);

  const before = heapUsed();
  let refused = 0;
  for (let i = 0; i < n; i++) {
    // A realistic KYC: 20-character txn_id, national msisdn, the stored answer as txn-guard writes it.
    const msisdn = `07${String(10_000_000 + i)}`;
    const key = `demo-key:T${String(i).padStart(19, '0')}`;
    const fingerprint = `kyc|${msisdn}|`;
    const outcome = JSON.stringify({ r: { operation: 'kyc', kyc: { msisdn, isPrepaid: true, isActive: true, isValid: true, tenureSinceMs: 1_700_000_000_000 + i, paymentType: 'prepaid' } } });
    try {
      await store.admission.admit({ txn: { key, fingerprint, ttlS: 60 } });
      await store.txns.complete(key, fingerprint, outcome, 86_400);
    } catch {
      refused++;
    }
  }
  const after = heapUsed();
  const stored = n - refused;
  const perEntry = (after - before) / Math.max(1, stored);
  const limit = (await import('node:v8')).getHeapStatistics().heap_size_limit;
  console.log(JSON.stringify({
    entries: n, stored, refused, heapUsedDeltaMB: +((after - before) / 2 ** 20).toFixed(1), bytesPerEntry: Math.round(perEntry),
    heapSizeLimitMB: Math.round(limit / 2 ** 20),
  }));
  await store.close();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
