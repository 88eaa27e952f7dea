import { useState } from 'preact/hooks';
import { api, must, Schemas } from '../../api/client';
import { PageHeader } from '../../components/page-header';
import { ErrorNote, Loading } from '../../components/notes';
import { operationLabel, utc } from '../../format';

type Record = Schemas['AuditRecord'];
interface Query { msisdn: string; partner: string; from: string; to: string }

/**
 * Compliance's question: who looked up this number, and why. The API logs each search
 * (who searched, never the number); this page keeps the answers only while it is open.
 */
export function AuditPage() {
  const [form, setForm] = useState<Query>({ msisdn: '', partner: '', from: '', to: '' });
  const [items, setItems] = useState<Record[] | null>(null);
  const [cursor, setCursor] = useState<string | undefined>();
  const [asked, setAsked] = useState<Query | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const fetchPage = async (q: Query, after?: string) => {
    setBusy(true);
    setError(null);
    try {
      const query = {
        ...(q.msisdn.trim() ? { msisdn: q.msisdn.trim() } : {}), ...(q.partner.trim() ? { partner: q.partner.trim() } : {}),
        ...(q.from ? { from: q.from } : {}), ...(q.to ? { to: q.to } : {}), ...(after ? { cursor: after } : {}), limit: 50,
      };
      const page = must(await api.GET('/audit', { params: { query } }));
      setItems((old) => (after && old ? [...old, ...page.items] : page.items));
      setCursor(page.nextCursor);
      setAsked(q);
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const set = (k: keyof Query) => (e: { currentTarget: { value: string } }) => setForm({ ...form, [k]: e.currentTarget.value });
  return (
    <>
      <PageHeader title="Audit search" description="Who looked up a number, when, through which API, and for what declared purpose. Each search is itself recorded." />
      <form class="toolbar wrap" onSubmit={(e) => { e.preventDefault(); if (form.msisdn.trim() || form.partner.trim()) void fetchPage(form); else setError('Give a phone number or a partner.'); }}>
        <div class="field"><label for="audit-msisdn">Phone number</label><input id="audit-msisdn" inputMode="tel" autoComplete="off" placeholder="255712000001" value={form.msisdn} onInput={set('msisdn')} /></div>
        <div class="field"><label for="audit-partner">Partner</label><input id="audit-partner" autoComplete="off" value={form.partner} onInput={set('partner')} /></div>
        <div class="field"><label for="audit-from">From</label><input id="audit-from" type="date" value={form.from} onInput={set('from')} /></div>
        <div class="field"><label for="audit-to">To (exclusive)</label><input id="audit-to" type="date" value={form.to} onInput={set('to')} /></div>
        <button type="submit" class="primary" disabled={busy}>Search</button>
      </form>
      {error && <ErrorNote>{error}</ErrorNote>}
      {busy && !items && <Loading what="audit records" />}
      {items && asked && (
        <div class="table-wrap">
          <table class="stack">
            <caption>{items.length} record{items.length === 1 ? '' : 's'}{cursor ? ' so far' : ''}, newest first</caption>
            <thead>
              <tr><th scope="col">Time</th><th scope="col">Partner</th><th scope="col">API</th><th scope="col">Phone number</th><th scope="col">Outcome</th><th scope="col">Purpose</th><th scope="col">Correlator</th></tr>
            </thead>
            <tbody>
              {items.map((r) => (
                <tr key={r.id}>
                  <td data-label="Time" class="nowrap">{utc(r.time)}</td>
                  <td data-label="Partner" class="nowrap">{r.partner}</td>
                  <td data-label="API" class="nowrap">{`${r.interface} ${operationLabel(r.operation)}`}</td>
                  <td data-label="Phone number" class="mono">{r.msisdn}</td>
                  <td data-label="Outcome" class="nowrap"><span><span class={r.httpStatus < 400 ? 'badge ok' : 'badge bad'}>{r.httpStatus}</span> <span class="mono">{r.code}</span>{r.replayed ? ' (replayed)' : ''}</span></td>
                  <td data-label="Purpose">{r.purpose ?? <span class="muted">—</span>}</td>
                  <td data-label="Correlator" class="mono small nowrap">{r.correlator}</td>
                </tr>
              ))}
              {items.length === 0 && <tr><td colSpan={7} class="muted">No record matches.</td></tr>}
            </tbody>
          </table>
        </div>
      )}
      {cursor && asked && <div class="buttons"><button type="button" disabled={busy} onClick={() => void fetchPage(asked, cursor)}>Older records</button></div>}
    </>
  );
}
