import { Router } from 'express';
import { PartnerAdmin } from '../../partners/ports/partner-admin';
import { SubscriptionRecord } from '../../subscriptions/domain/subscription';
import { requireRole } from './admin-auth';
import { parse, subscriptionsQuery } from './admin-schemas';
import { AdminProblem } from './problem';

/** What the admin API reads of the SIM swap subscriptions. */
export interface SubscriptionLister {
  listForOperator(partnerApiKey: string): Promise<SubscriptionRecord[]>;
}

function originOf(sink: string): string {
  try { return new URL(sink).origin; } catch { return '(invalid)'; }
}

/** The number with all but its last three digits hidden: the console shows which, not whose. */
function masked(phoneNumber: string): string {
  return `${phoneNumber.slice(0, 4)}${'•'.repeat(Math.max(0, phoneNumber.length - 7))}${phoneNumber.slice(-3)}`;
}

/** A partner's webhook subscriptions (CONTRACT §8, §12; viewer): sink origin only (a sink URL may hold a credential), numbers masked. */
export function subscriptionRoutes(partners: PartnerAdmin, subscriptions: SubscriptionLister): Router {
  const router = Router();
  router.get('/subscriptions', requireRole('viewer'), async (req, res) => {
    const q = parse(subscriptionsQuery, req.query, 'query');
    const partner = await partners.get(q.partner);
    if (!partner) throw new AdminProblem(404, 'no such partner');
    const items = await subscriptions.listForOperator(partner.apiKey);
    res.json({
      items: items.map((s) => ({
        id: s.id, phoneNumber: s.threeLegged ? null : masked(s.phoneNumber), sinkOrigin: originOf(s.sink), types: s.types,
        startsAt: new Date(s.startsAtMs).toISOString(), expiresAt: s.expiresAtMs === undefined ? null : new Date(s.expiresAtMs).toISOString(),
        maxEvents: s.maxEvents ?? null,
      })),
    });
  });
  return router;
}
