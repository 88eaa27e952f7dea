import { Router } from 'express';
import { Logger } from '../../observability/logger';
import { DeadLetter } from '../../subscriptions/delivery/dead-letters';
import { adminLocals, requireRole } from './admin-auth';
import { AdminProblem } from './problem';

/** What the admin API does to dead letters; the BullMQ-backed one lives in subscriptions/delivery. */
export interface DeadLetterStore {
  list(): Promise<DeadLetter[]>;
  /** The ids actually replayed. */
  replay(jobIds: string[]): Promise<string[]>;
  /** False when no such dead letter. */
  drop(jobId: string): Promise<boolean>;
}

const NO_REDIS = 'dead letters are kept on Redis; this instance keeps its state in memory (set REDIS_URL or REDIS_CLUSTER_NODES), so there are none to list';

function idOf(raw: unknown): string {
  if (typeof raw !== 'string' || !/^[A-Za-z0-9:_-]{1,128}$/.test(raw)) throw new AdminProblem(404, 'no such dead letter');
  return raw;
}

/** Webhook dead letters (CONTRACT §8, §12): list (viewer), replay and drop (partner-admin). */
export function deadLetterRoutes(store: DeadLetterStore | undefined, logger: Logger): Router {
  const router = Router();
  const need = (): DeadLetterStore => {
    if (!store) throw new AdminProblem(503, NO_REDIS, 'urn:verify-customer:admin:no-redis');
    return store;
  };
  router.get('/dead-letters', requireRole('viewer'), async (_req, res) => {
    res.json({ items: await need().list() });
  });
  router.post('/dead-letters/:id/replay', requireRole('partner-admin'), async (req, res) => {
    const id = idOf(req.params.id);
    const done = await need().replay([id]);
    if (done.length === 0) throw new AdminProblem(404, 'no such dead letter');
    // Dead letters are not registry changes (no change log entry): the log says who acted.
    logger.info({ subject: adminLocals(res).principal.subject, jobId: id }, 'admin: dead letter replayed');
    res.status(202).json({ id });
  });
  router.delete('/dead-letters/:id', requireRole('partner-admin'), async (req, res) => {
    const id = idOf(req.params.id);
    if (!(await need().drop(id))) throw new AdminProblem(404, 'no such dead letter');
    logger.info({ subject: adminLocals(res).principal.subject, jobId: id }, 'admin: dead letter dropped');
    res.status(204).end();
  });
  return router;
}
