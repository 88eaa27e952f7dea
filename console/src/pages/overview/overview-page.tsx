import { useMemo } from 'preact/hooks';
import { api, must, Schemas } from '../../api/client';
import { PageHeader } from '../../components/page-header';
import { ErrorNote, Loading } from '../../components/notes';
import { TimeChart } from '../../components/time-chart';
import { useLoad } from '../../components/use-load';
import { operationLabel, utc } from '../../format';

type Overview = Schemas['Overview'];

function apiName(s: Schemas['ApiSeries']): string {
  return `${s.interface} ${operationLabel(s.operation)}`;
}

function Charts(props: { overview: Overview }) {
  const { apis } = props.overview;
  const data = useMemo(() => {
    const times = (apis[0]?.buckets ?? []).map((b) => Date.parse(b.start) / 1000);
    return {
      times,
      requests: apis.map((s) => ({ label: apiName(s), values: s.buckets.map((b) => b.requests) })),
      errors: apis.map((s) => ({ label: apiName(s), values: s.buckets.map((b) => b.errors) })),
    };
  }, [apis]);
  return (
    <div class="grid two">
      <TimeChart caption={`Requests per API, last ${props.overview.hours} hours`} times={data.times} series={data.requests} />
      <TimeChart caption={`Errors (HTTP 400 and above) per API, last ${props.overview.hours} hours`} times={data.times} series={data.errors} />
    </div>
  );
}

function stateClass(state: string): string {
  if (['closed', 'redis', 'postgres', 'file', 'database', 'memory'].includes(state)) return 'badge ok';
  if (state === 'half_open' || state === 'stale') return 'badge warn';
  return ['open', 'degraded', 'unloaded'].includes(state) ? 'badge bad' : 'badge';
}

function State(props: { overview: Overview }) {
  const o = props.overview;
  const upstreams = Object.entries(o.upstreams);
  return (
    <div class="grid cards">
      <section class="card" aria-labelledby="upstreams-h">
        <h2 id="upstreams-h">Upstream breakers</h2>
        {upstreams.length === 0 ? <p class="muted">No upstream called yet.</p> : (
          <table class="compact">
            <caption class="sr-only">Circuit breaker state per upstream on this instance</caption>
            <thead><tr><th scope="col">Upstream</th><th scope="col">Breaker</th></tr></thead>
            <tbody>{upstreams.map(([name, state]) => <tr key={name}><td>{name}</td><td><span class={stateClass(state)}>{state.replace('_', '-')}</span></td></tr>)}</tbody>
          </table>
        )}
      </section>
      <section class="card" aria-labelledby="stores-h">
        <h2 id="stores-h">Stores</h2>
        <dl class="facts">
          <dt>State store</dt><dd><span class={stateClass(o.store)}>{o.store}</span></dd>
          <dt>Audit trail</dt><dd><span class={stateClass(o.audit.mode)}>{o.audit.mode}</span></dd>
          <dt>Partner registry</dt><dd><span class={stateClass(o.registry.kind)}>{o.registry.kind}</span> {o.registry.partners} partners</dd>
          <dt>Webhook dead letters</dt><dd>{o.webhooks.deadLetters === null ? <span class="muted">not kept (no Redis)</span> : o.webhooks.deadLetters}</dd>
        </dl>
      </section>
    </div>
  );
}

export function OverviewPage() {
  const overview = useLoad(async () => must(await api.GET('/overview', { params: { query: { hours: 24 } } })), []);
  return (
    <>
      <PageHeader title="Overview" description="Answers per API from the audit trail (every instance), and this instance's upstreams and stores.">
        <button type="button" onClick={overview.reload}>Refresh</button>
      </PageHeader>
      {overview.error && <ErrorNote>{overview.error}</ErrorNote>}
      {!overview.data && overview.loading && <Loading what="the overview" />}
      {overview.data && (
        <>
          <p class="muted">As of {utc(overview.data.generatedAt)}.</p>
          <Charts overview={overview.data} />
          <State overview={overview.data} />
        </>
      )}
    </>
  );
}
