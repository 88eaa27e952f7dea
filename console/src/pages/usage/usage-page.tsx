import { useMemo, useState } from 'preact/hooks';
import { api, must, Schemas } from '../../api/client';
import { PageHeader } from '../../components/page-header';
import { ErrorNote, Loading } from '../../components/notes';
import { TimeChart } from '../../components/time-chart';
import { useLoad } from '../../components/use-load';
import { day, operationLabel } from '../../format';
import { usageCsv, usageSeries, usageTotals } from './usage-data';

interface Query { from: string; to: string; interval: 'day' | 'hour'; partner: string }

function defaultQuery(): Query {
  const tomorrow = new Date(Date.now() + 86400_000);
  return { from: day(new Date(Date.now() - 6 * 86400_000)), to: day(tomorrow), interval: 'day', partner: '' };
}

function download(usage: Schemas['Usage']): void {
  const url = URL.createObjectURL(new Blob([usageCsv(usage)], { type: 'text/csv' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = `usage-${usage.from.slice(0, 10)}-${usage.to.slice(0, 10)}-${usage.interval}${usage.partner ? `-${usage.partner}` : ''}.csv`;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

function Results(props: { usage: Schemas['Usage'] }) {
  const { times, series } = useMemo(() => usageSeries(props.usage), [props.usage]);
  const totals = useMemo(() => usageTotals(props.usage), [props.usage]);
  return (
    <>
      <TimeChart caption={`Requests per partner and API, per ${props.usage.interval} (UTC)`} times={times} series={series} height={260} />
      <div class="table-wrap">
        <table class="stack">
          <caption>Totals for the period</caption>
          <thead><tr><th scope="col">Partner</th><th scope="col">API</th><th scope="col" class="num">Answered</th><th scope="col" class="num">Refused</th><th scope="col" class="num">Replayed</th></tr></thead>
          <tbody>
            {totals.map((t) => (
              <tr key={`${t.partner}/${t.operation}`}>
                <td data-label="Partner">{t.partner}</td><td data-label="API">{operationLabel(t.operation)}</td><td data-label="Answered" class="num">{t.answered}</td><td data-label="Refused" class="num">{t.refused}</td><td data-label="Replayed" class="num">{t.replayed}</td>
              </tr>
            ))}
            {totals.length === 0 && <tr><td colSpan={5} class="muted">Nothing recorded in this period.</td></tr>}
          </tbody>
        </table>
      </div>
    </>
  );
}

export function UsagePage() {
  const [form, setForm] = useState<Query>(defaultQuery);
  const [query, setQuery] = useState<Query>(form);
  const partners = useLoad(async () => must(await api.GET('/partners')).items.map((p) => p.name), []);
  const usage = useLoad(async () => must(await api.GET('/usage', { params: { query: {
    from: query.from, to: query.to, interval: query.interval, ...(query.partner ? { partner: query.partner } : {}),
  } } })), [query]);
  const set = (k: keyof Query) => (e: { currentTarget: { value: string } }) => setForm({ ...form, [k]: e.currentTarget.value });
  // Per hour over a week is 168 points of mostly nothing: switching to hours narrows the period to today and yesterday.
  const pickInterval = (e: { currentTarget: { value: string } }) => {
    const interval = e.currentTarget.value as Query['interval'];
    const long = Date.parse(form.to) - Date.parse(form.from) > 2 * 86400_000;
    setForm(interval === 'hour' && long
      ? { ...form, interval, from: day(new Date(Date.now() - 86400_000)), to: day(new Date(Date.now() + 86400_000)) }
      : { ...form, interval });
  };
  return (
    <>
      <PageHeader title="Usage" description="Answered requests per partner and API, from the audit trail: what finance bills from." >
        <button type="button" disabled={!usage.data} onClick={() => usage.data && download(usage.data)}>Download CSV</button>
      </PageHeader>
      <form class="toolbar wrap" onSubmit={(e) => { e.preventDefault(); setQuery(form); }}>
        <div class="field"><label for="usage-from">From</label><input id="usage-from" type="date" required value={form.from} onInput={set('from')} /></div>
        <div class="field"><label for="usage-to">To (exclusive)</label><input id="usage-to" type="date" required value={form.to} onInput={set('to')} /></div>
        <div class="field">
          <label for="usage-interval">Per</label>
          <select id="usage-interval" value={form.interval} onChange={pickInterval}><option value="day">day</option><option value="hour">hour</option></select>
        </div>
        <div class="field">
          <label for="usage-partner">Partner</label>
          <select id="usage-partner" value={form.partner} onChange={set('partner')}>
            <option value="">All partners</option>
            {(partners.data ?? []).map((n) => <option key={n} value={n}>{n}</option>)}
          </select>
        </div>
        <button type="submit" class="primary">Show</button>
      </form>
      {usage.error && <ErrorNote>{usage.error}</ErrorNote>}
      {!usage.data && usage.loading && <Loading what="usage" />}
      {usage.data && <Results usage={usage.data} />}
    </>
  );
}
