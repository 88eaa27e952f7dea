import { NextFunction, Request, Response, Router } from 'express';
import { NewPartner, PartnerAdmin, PartnerPatch } from '../../partners/ports/partner-admin';
import { API_BASE, adminLocals, requireRole } from './admin-auth';
import { actorOf } from '../auth/principal';
import { changesQuery, newPartnerSchema, parse, partnerPatchSchema, rotateSchema } from './admin-schemas';
import { AdminProblem } from './problem';

/** A write with no body at all (rotation's body is optional) reads as {}; any body is parsed. */
function optionalBody(json: (req: Request, res: Response, next: NextFunction) => void) {
  return (req: Request, res: Response, next: NextFunction) => {
    const h = req.headers;
    if ((h['content-length'] === undefined || h['content-length'] === '0') && h['transfer-encoding'] === undefined) {
      req.body = {};
      next();
      return;
    }
    json(req, res, next);
  };
}

function nameOf(req: Request): string {
  const name = req.params.name;
  if (typeof name !== 'string' || name.length === 0 || name.length > 64) throw new AdminProblem(404, 'no such partner');
  return name;
}

/** Drops what a PartnerAdmin answer must not carry through (defence in depth: only the documented fields go out). */
function noUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

/** Partners, their secrets and the change log (CONTRACT §12) over the PartnerAdmin port. */
export function partnerRoutes(admin: PartnerAdmin, json: (req: Request, res: Response, next: NextFunction) => void): Router {
  const router = Router();
  const viewer = requireRole('viewer');
  const partnerAdmin = requireRole('partner-admin');

  router.get('/partners', viewer, async (_req, res) => {
    res.json({ items: await admin.list() });
  });

  router.post('/partners', partnerAdmin, json, async (req, res) => {
    const input: NewPartner = noUndefined(parse(newPartnerSchema, req.body, 'body'));
    const created = await admin.create(input, actorOf(adminLocals(res).principal));
    res.status(201).location(`${API_BASE}/partners/${encodeURIComponent(created.partner.name)}`).json({ partner: created.partner, secret: created.secret });
  });

  router.get('/partners/:name', viewer, async (req, res) => {
    const partner = await admin.get(nameOf(req));
    if (!partner) throw new AdminProblem(404, 'no such partner');
    res.json(partner);
  });

  router.patch('/partners/:name', partnerAdmin, json, async (req, res) => {
    const name = nameOf(req);
    const patch: PartnerPatch = noUndefined(parse(partnerPatchSchema, req.body, 'body'));
    res.json(await admin.update(name, patch, actorOf(adminLocals(res).principal)));
  });

  router.post('/partners/:name/secrets', partnerAdmin, optionalBody(json), async (req, res) => {
    const name = nameOf(req);
    const { graceSeconds } = parse(rotateSchema, req.body, 'body');
    res.status(201).json(await admin.rotateSecret(name, graceSeconds, actorOf(adminLocals(res).principal)));
  });

  router.delete('/partners/:name/secrets/:id', partnerAdmin, async (req, res) => {
    const id = req.params.id;
    if (typeof id !== 'string' || id.length === 0 || id.length > 128) throw new AdminProblem(404, 'no such secret');
    await admin.revokeSecret(nameOf(req), id, actorOf(adminLocals(res).principal));
    res.status(204).end();
  });

  router.get('/changes', viewer, async (req, res) => {
    const q = parse(changesQuery, req.query, 'query');
    res.json(await admin.changes({ ...(q.partner ? { partner: q.partner } : {}), ...(q.cursor ? { cursor: q.cursor } : {}), limit: q.limit ?? 50 }));
  });
  return router;
}
