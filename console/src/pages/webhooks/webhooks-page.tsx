import { useState } from 'preact/hooks';
import { api, must, Schemas } from '../../api/client';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { PageHeader } from '../../components/page-header';
import { ErrorNote, InfoNote, Loading, StatusNote } from '../../components/notes';
import { useLoad } from '../../components/use-load';
import { utc } from '../../format';
import { useCan } from '../../session/session';
import { SubscriptionsSection } from './subscriptions-section';

type DeadLetter = Schemas['DeadLetter'];

/** Webhook events whose retry window ran out: replay one (same event id, new window) or drop it. */
export function WebhooksPage() {
  const canEdit = useCan('partner-admin');
  const letters = useLoad(async () => must(await api.GET('/dead-letters')).items, []);
  const [dropping, setDropping] = useState<DeadLetter | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const replay = async (d: DeadLetter) => {
    setError(null);
    try {
      must(await api.POST('/dead-letters/{id}/replay', { params: { path: { id: d.jobId } } }));
      setDone(`Event ${d.eventId} queued again for ${d.partner}.`);
      letters.reload();
    } catch (e) {
      setError((e as Error).message);
    }
  };
  return (
    <>
      <PageHeader title="Webhooks" description="Partners' SIM swap subscriptions, and the notifications that could not be delivered to a sink within the retry window (dead letters).">
        <button type="button" onClick={letters.reload}>Refresh</button>
      </PageHeader>
      {done && <StatusNote>{done}</StatusNote>}
      {error && <ErrorNote>{error}</ErrorNote>}
      <SubscriptionsSection />
      <h2>Dead letters</h2>
      {letters.error && (letters.status === 503
        ? <InfoNote>No dead letters to show: {letters.error}.</InfoNote>
        : <ErrorNote>{letters.error}</ErrorNote>)}
      {!letters.data && letters.loading && <Loading what="dead letters" />}
      {letters.data && (
        <div class="table-wrap">
          <table class="stack">
            <caption class="sr-only">Dead letters ({letters.data.length})</caption>
            <thead>
              <tr><th scope="col">Partner</th><th scope="col">Event</th><th scope="col">Sink</th><th scope="col">Attempts</th><th scope="col">Last outcome</th><th scope="col">Dead since</th>{canEdit && <th scope="col"><span class="sr-only">Actions</span></th>}</tr>
            </thead>
            <tbody>
              {letters.data.map((d) => (
                <tr key={d.jobId}>
                  <td data-label="Partner">{d.partner}</td>
                  <td data-label="Event"><span><span class="mono small">{d.eventId}</span><br /><span class="muted">{d.type.split('.').pop()} · subscription <span class="mono">{d.subscriptionId}</span></span></span></td>
                  <td data-label="Sink" class="mono">{d.sinkOrigin}</td>
                  <td data-label="Attempts" class="num">{d.attempts}</td>
                  <td data-label="Last outcome">{d.lastOutcome}</td>
                  <td data-label="Dead since" class="nowrap">{utc(d.deadAt)}</td>
                  {canEdit && (
                    <td data-label="" class="nowrap">
                      <span class="actions">
                        <button type="button" class="small" aria-label={`Replay event ${d.eventId}`} onClick={() => void replay(d)}>Replay</button>
                        <button type="button" class="small danger" aria-label={`Drop event ${d.eventId}`} onClick={() => setDropping(d)}>Drop</button>
                      </span>
                    </td>
                  )}
                </tr>
              ))}
              {letters.data.length === 0 && <tr><td colSpan={canEdit ? 7 : 6} class="muted">No dead letters: every event was delivered or is still being retried.</td></tr>}
            </tbody>
          </table>
        </div>
      )}
      {dropping && (
        <ConfirmDialog title="Drop this dead letter?" confirmLabel="Drop event" onClose={() => setDropping(null)}
          onConfirm={async () => {
            must(await api.DELETE('/dead-letters/{id}', { params: { path: { id: dropping.jobId } } }));
            setDone(`Event ${dropping.eventId} dropped.`);
            letters.reload();
          }}>
          <p>The event <span class="mono">{dropping.eventId}</span> for <strong>{dropping.partner}</strong> is deleted for good and will never be delivered to <span class="mono">{dropping.sinkOrigin}</span>.</p>
        </ConfirmDialog>
      )}
    </>
  );
}
