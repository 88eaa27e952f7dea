import { useState } from 'preact/hooks';
import { api, must, Partner } from '../../api/client';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { Dialog } from '../../components/dialog';
import { PageHeader } from '../../components/page-header';
import { ErrorNote, Loading, StatusNote } from '../../components/notes';
import { useLoad } from '../../components/use-load';
import { operationLabel } from '../../format';
import { Link } from '../../router';
import { useCan } from '../../session/session';
import { ChangeTable } from '../changes/change-table';
import { PartnerFields, PartnerForm } from './partner-form';
import { RotateSecretDialog } from './rotate-secret-dialog';
import { SecretsTable } from './secrets-table';

type Open = null | 'edit' | 'disable' | 'rotate' | { revoke: string };

function Facts(props: { partner: Partner }) {
  const p = props.partner;
  return (
    <dl class="facts">
      <dt>Status</dt><dd><span class={p.enabled ? 'badge ok' : 'badge bad'}>{p.enabled ? 'enabled' : 'disabled'}</span></dd>
      <dt>Api key</dt><dd class="mono">{p.apiKey}</dd>
      <dt>Kind</dt><dd>{p.kind}</dd>
      <dt>Operations</dt><dd>{p.operations.length ? p.operations.map(operationLabel).join(', ') : <span class="muted">none</span>}</dd>
      <dt>Legacy signature</dt><dd>{p.signature}</dd>
      <dt>Rate limit</dt><dd>{p.rateLimit ? `${p.rateLimit.perSecond}/s, burst ${p.rateLimit.burst}` : <span class="muted">service default</span>}</dd>
      <dt>Purpose</dt><dd>{p.purpose ?? <span class="muted">none declared</span>}</dd>
    </dl>
  );
}

export function PartnerPage(props: { name: string }) {
  const canEdit = useCan('partner-admin');
  const [open, setOpen] = useState<Open>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const partner = useLoad(async () => must(await api.GET('/partners/{name}', { params: { path: { name: props.name } } })), [props.name]);
  const changes = useLoad(async () => must(await api.GET('/changes', { params: { query: { partner: props.name, limit: 20 } } })).items, [props.name]);
  const path = { params: { path: { name: props.name } } };
  const after = (message: string) => {
    setDone(message);
    partner.reload();
    changes.reload();
  };
  const patch = async (body: Partial<PartnerFields> & { enabled?: boolean }) => must(await api.PATCH('/partners/{name}', { ...path, body }));
  const save = async (fields: PartnerFields) => {
    setError(null);
    try {
      await patch({ operations: fields.operations, kind: fields.kind, signature: fields.signature, rateLimit: fields.rateLimit, purpose: fields.purpose });
      setOpen(null);
      after('Changes saved.');
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const enable = async () => {
    try {
      await patch({ enabled: true });
      after('Partner enabled.');
    } catch (e) {
      setError((e as Error).message);
    }
  };
  const p = partner.data;
  return (
    <>
      <p class="crumbs"><Link to="/partners">Partners</Link> / <span aria-current="page">{props.name}</span></p>
      <PageHeader title={props.name}>
        {canEdit && p && (
          <>
            <button type="button" onClick={() => setOpen('edit')}>Edit</button>
            <button type="button" onClick={() => setOpen('rotate')}>Rotate secret</button>
            {p.enabled
              ? <button type="button" class="danger" onClick={() => setOpen('disable')}>Disable partner</button>
              : <button type="button" onClick={() => void enable()}>Enable partner</button>}
          </>
        )}
      </PageHeader>
      {done && <StatusNote>{done}</StatusNote>}
      {(error ?? partner.error) && <ErrorNote>{error ?? partner.error}</ErrorNote>}
      {!p && partner.loading && <Loading what="the partner" />}
      {p && (
        <>
          <section class="card" aria-labelledby="details-h"><h2 id="details-h">Details</h2><Facts partner={p} /></section>
          <section class="card" aria-labelledby="secrets-h">
            <h2 id="secrets-h">Secrets</h2>
            <SecretsTable partner={p} canRevoke={canEdit} onRevoke={(id) => setOpen({ revoke: id })} />
          </section>
        </>
      )}
      <section aria-labelledby="history-h">
        <h2 id="history-h">Recent changes</h2>
        {changes.error && <ErrorNote>{changes.error}</ErrorNote>}
        {changes.data && <ChangeTable items={changes.data} showPartner={false} caption={`Changes to ${props.name}, newest first`} />}
      </section>
      {open === 'edit' && p && (
        <Dialog title={`Edit ${p.name}`} onClose={() => setOpen(null)} wide>
          {error && <ErrorNote>{error}</ErrorNote>}
          <PartnerForm initial={p} busy={false} submitLabel="Save changes" onSubmit={(f) => void save(f)} onCancel={() => setOpen(null)} />
        </Dialog>
      )}
      {open === 'rotate' && <RotateSecretDialog partner={props.name} onClose={(rotated) => { setOpen(null); if (rotated) after('Secret rotated.'); }} />}
      {open === 'disable' && (
        <ConfirmDialog title={`Disable ${props.name}?`} confirmLabel="Disable partner" onClose={() => setOpen(null)}
          onConfirm={async () => { await patch({ enabled: false }); after('Partner disabled.'); }}>
          <p>Every instance refuses <strong>{props.name}</strong> within 2 seconds: its signed requests, new tokens, tokens already issued and its webhook deliveries. Its secrets and settings are kept; enabling it again restores them.</p>
        </ConfirmDialog>
      )}
      {open !== null && typeof open === 'object' && (
        <ConfirmDialog title={`Revoke secret ${open.revoke}?`} confirmLabel="Revoke secret" onClose={() => setOpen(null)}
          onConfirm={async () => {
            must(await api.DELETE('/partners/{name}/secrets/{id}', { params: { path: { name: props.name, id: open.revoke } } }));
            after(`Secret ${open.revoke} revoked.`);
          }}>
          <p>Requests signed with this secret, and tokens obtained with it, are refused on every instance within 2 seconds. This cannot be undone: <strong>{props.name}</strong> keeps working only with its other secret.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
