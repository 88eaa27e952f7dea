import { Router } from 'express';
import { AuditReader } from '../../audit/adapters/audit-reader';
import { Clock } from '../../kernel/clock';
import { PartnerAdmin } from '../../partners/ports/partner-admin';
import { requireRole } from './admin-auth';
import { overviewQuery, parse } from './admin-schemas';

const HOUR_MS = 3_600_000;

export interface OverviewDeps {
  clock: Clock;
  partners: PartnerAdmin;
  withReader<T>(fn: (reader: AuditReader) => Promise<T>): Promise<T>;
  /** Each upstream's breaker state on this instance. */
  upstreams(): Record<string, string>;
  storeMode(): string;
  auditMode(): string;
  registryKind(): string;
  /** How many dead letters wait; undefined when none are kept (no Redis). */
  deadLetterCount(): Promise<number | undefined>;
}

interface Series {
  interface: string;
  operation: string;
  buckets: { start: string; requests: number; errors: number }[];
}

/** The console's first page (CONTRACT §12): requests and errors per API by hour, breakers, store and audit state. */
export function overviewRoutes(deps: OverviewDeps): Router {
  const router = Router();
  router.get('/overview', requireRole('viewer'), async (req, res) => {
    const { hours = 24 } = parse(overviewQuery, req.query, 'query');
    const now = deps.clock.nowMs();
    const firstMs = Math.floor(now / HOUR_MS) * HOUR_MS - (hours - 1) * HOUR_MS;
    const [rows, partners, deadLetters] = await Promise.all([
      deps.withReader((r) => r.usageBuckets(firstMs, now + 1, 'hour')),
      deps.partners.list(),
      deps.deadLetterCount().catch(() => undefined),
    ]);
    const series = new Map<string, Series>();
    for (const r of rows) {
      const key = `${r.interface} ${r.operation}`;
      let s = series.get(key);
      if (!s) {
        // Every hour of the window, so a quiet hour plots as zero rather than a gap.
        s = { interface: r.interface, operation: r.operation, buckets: Array.from({ length: hours }, (_, i) => ({ start: new Date(firstMs + i * HOUR_MS).toISOString(), requests: 0, errors: 0 })) };
        series.set(key, s);
      }
      const b = s.buckets[Math.floor((r.startMs - firstMs) / HOUR_MS)];
      if (!b) continue;
      b.requests += r.count;
      if (r.httpStatus >= 400) b.errors += r.count;
    }
    res.json({
      generatedAt: new Date(now).toISOString(), hours,
      apis: [...series.values()].sort((a, b) => a.interface.localeCompare(b.interface) || a.operation.localeCompare(b.operation)),
      upstreams: deps.upstreams(), store: deps.storeMode(), audit: { mode: deps.auditMode() },
      registry: { kind: deps.registryKind(), partners: partners.length },
      webhooks: { deadLetters: deadLetters ?? null },
    });
  });
  return router;
}
