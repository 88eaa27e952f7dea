import { useState } from 'preact/hooks';
import { api, must } from '../../api/client';
import { PageHeader } from '../../components/page-header';
import { ErrorNote, Loading } from '../../components/notes';
import { useLoad } from '../../components/use-load';
import { operationLabel } from '../../format';
import { Link, navigate } from '../../router';
import { useCan } from '../../session/session';
import { CreatePartnerDialog } from './create-partner-dialog';

export function PartnersPage() {
  const canEdit = useCan('partner-admin');
  const [filter, setFilter] = useState('');
  const [creating, setCreating] = useState(false);
  const partners = useLoad(async () => must(await api.GET('/partners')).items, []);
  const needle = filter.trim().toLowerCase();
  const shown = (partners.data ?? []).filter((p) => !needle || p.name.toLowerCase().includes(needle) || p.apiKey.toLowerCase().includes(needle)
    || p.operations.some((o) => o.includes(needle)));
  return (
    <>
      <PageHeader title="Partners" description="The banks and internal apps that may call the service, and what each may do.">
        {canEdit && <button type="button" class="primary" onClick={() => setCreating(true)}>New partner</button>}
      </PageHeader>
      <div class="toolbar">
        <label for="partner-filter">Filter partners</label>
        <input id="partner-filter" type="search" placeholder="name, api key or operation" value={filter} onInput={(e) => setFilter(e.currentTarget.value)} />
      </div>
      {partners.error && <ErrorNote>{partners.error}</ErrorNote>}
      {!partners.data && partners.loading && <Loading what="partners" />}
      {partners.data && (
        <div class="table-wrap">
          <table class="stack">
            <caption class="sr-only">Partners{needle ? `, filtered by “${filter}”` : ''}: {shown.length} shown</caption>
            <thead>
              <tr><th scope="col">Name</th><th scope="col">Status</th><th scope="col">Kind</th><th scope="col">Operations</th><th scope="col">Api key</th><th scope="col">Secrets</th></tr>
            </thead>
            <tbody>
              {shown.map((p) => (
                <tr key={p.name}>
                  <th scope="row" data-label="Name" class="nowrap"><Link to={`/partners/${encodeURIComponent(p.name)}`}>{p.name}</Link></th>
                  <td data-label="Status"><span class={p.enabled ? 'badge ok' : 'badge bad'}>{p.enabled ? 'enabled' : 'disabled'}</span></td>
                  <td data-label="Kind">{p.kind}</td>
                  <td data-label="Operations">{p.operations.map(operationLabel).join(', ')}</td>
                  <td data-label="Api key" class="mono nowrap">{p.apiKey}</td>
                  <td data-label="Secrets">{p.secrets.length}</td>
                </tr>
              ))}
              {shown.length === 0 && <tr><td colSpan={6} class="muted">{needle ? 'No partner matches the filter.' : 'No partner yet.'}</td></tr>}
            </tbody>
          </table>
        </div>
      )}
      {creating && (
        <CreatePartnerDialog onClose={(name) => {
          setCreating(false);
          if (name) navigate(`/partners/${encodeURIComponent(name)}`);
        }} />
      )}
    </>
  );
}
