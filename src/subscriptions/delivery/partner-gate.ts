import { PartnerRegistry } from '../../partners/partners';
import { SinkSender } from './http-sink-sender';

/**
 * Asks the partner registry before every attempt: a partner disabled, removed or without
 * `sim_swap` since the event was queued (a SIGHUP reload) gets nothing more, not even the
 * event already queued, since it carries the phone number. The attempt ends `withdrawn`,
 * which the delivery adapters count and drop (docs/camara.md says what becomes of the
 * subscription).
 */
export function partnerGate(send: SinkSender, partners: Pick<PartnerRegistry, 'find'>): SinkSender {
  return (d) => {
    const p = partners.find(d.partner);
    if (!p || !p.enabled || !p.operations.has('sim_swap')) return Promise.resolve('withdrawn');
    return send(d);
  };
}
