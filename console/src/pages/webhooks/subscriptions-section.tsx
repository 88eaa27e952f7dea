import { useState } from 'preact/hooks';
import { api, must } from '../../api/client';
import { ErrorNote, InfoNote, Loading } from '../../components/notes';
import { useLoad } from '../../components/use-load';
import { utc } from '../../format';

/** A partner's live SIM swap subscriptions: numbers masked, sinks by origin only (what the admin API gives). */
export function SubscriptionsSection() {
  const partners = useLoad(async () => must(await api.GET('/partners')).items.map((p) => p.name), []);
  const [partner, setPartner] = useState('');
  const subs = useLoad(async () => (partner ? must(await api.GET('/subscriptions', { params: { query: { partner } } })).items : undefined), [partner]);
  return (
    <section aria-labelledby="subscriptions-h">
      <h2 id="subscriptions-h">Subscriptions</h2>
      <div class="toolbar">
        <label for="subscriptions-partner">Partner</label>
        <select id="subscriptions-partner" value={partner} onChange={(e) => setPartner(e.currentTarget.value)}>
          <option value="">Choose a partner</option>
          {(partners.data ?? []).map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
      </div>
      {subs.error && (subs.status === 503 ? <InfoNote>{subs.error}.</InfoNote> : <ErrorNote>{subs.error}</ErrorNote>)}
      {partner && !subs.data && subs.loading && <Loading what="subscriptions" />}
      {partner && subs.data && (
        <div class="table-wrap">
          <table class="stack">
            <caption>Live subscriptions of {partner} ({subs.data.length})</caption>
            <thead>
              <tr><th scope="col">Subscription</th><th scope="col">Phone number</th><th scope="col">Sink</th><th scope="col">Events</th><th scope="col">Since</th><th scope="col">Until</th></tr>
            </thead>
            <tbody>
              {subs.data.map((s) => (
                <tr key={s.id}>
                  <td data-label="Subscription" class="mono small">{s.id}</td>
                  <td data-label="Phone number" class="mono">{s.phoneNumber ?? <span class="muted">(three-legged)</span>}</td>
                  <td data-label="Sink" class="mono">{s.sinkOrigin}</td>
                  <td data-label="Events">{s.types.map((t) => t.split('.').pop()).join(', ')}{s.maxEvents === null ? '' : ` (at most ${s.maxEvents})`}</td>
                  <td data-label="Since" class="nowrap">{utc(s.startsAt)}</td>
                  <td data-label="Until" class="nowrap">{s.expiresAt === null ? 'no end' : utc(s.expiresAt)}</td>
                </tr>
              ))}
              {subs.data.length === 0 && <tr><td colSpan={6} class="muted">{partner} has no live subscription.</td></tr>}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
