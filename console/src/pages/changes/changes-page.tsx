import { useState } from 'preact/hooks';
import { api, must, Schemas } from '../../api/client';
import { PageHeader } from '../../components/page-header';
import { ErrorNote, Loading } from '../../components/notes';
import { useLoad } from '../../components/use-load';
import { ChangeTable } from './change-table';

/** The change log, newest first; "Older changes" follows the API's cursor. */
export function ChangesPage() {
  const [partner, setPartner] = useState('');
  const [applied, setApplied] = useState('');
  const [older, setOlder] = useState<Schemas['ChangeEntry'][]>([]);
  const [cursor, setCursor] = useState<string | undefined>();
  const first = useLoad(async () => {
    const page = must(await api.GET('/changes', { params: { query: { limit: 50, ...(applied ? { partner: applied } : {}) } } }));
    setOlder([]);
    setCursor(page.nextCursor);
    return page;
  }, [applied]);
  const more = async () => {
    const page = must(await api.GET('/changes', { params: { query: { limit: 50, cursor, ...(applied ? { partner: applied } : {}) } } }));
    setOlder((o) => [...o, ...page.items]);
    setCursor(page.nextCursor);
  };
  return (
    <>
      <PageHeader title="Changes" description="Every change to the partner registry: who made it, when, and what it changed. Secrets never appear here." />
      <form class="toolbar" onSubmit={(e) => { e.preventDefault(); setApplied(partner.trim()); }}>
        <label for="changes-partner">Partner</label>
        <input id="changes-partner" value={partner} placeholder="all partners" onInput={(e) => setPartner(e.currentTarget.value)} />
        <button type="submit">Show</button>
      </form>
      {first.error && <ErrorNote>{first.error}</ErrorNote>}
      {!first.data && first.loading && <Loading what="changes" />}
      {first.data && <ChangeTable items={[...first.data.items, ...older]} showPartner caption="Registry changes, newest first" />}
      {cursor && <div class="buttons"><button type="button" onClick={() => void more()}>Older changes</button></div>}
    </>
  );
}
