import { useState } from 'preact/hooks';
import { api, must, Schemas } from '../../api/client';
import { Dialog } from '../../components/dialog';
import { ErrorNote } from '../../components/notes';
import { SecretOnce } from '../../components/secret-once';
import { PartnerFields, PartnerForm } from './partner-form';

/** Onboarding: the form, then the api key and the first secret, shown this once. */
export function CreatePartnerDialog(props: { onClose: (created?: string) => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<Schemas['CreatedPartner'] | null>(null);
  const create = async (fields: PartnerFields) => {
    setBusy(true);
    setError(null);
    try {
      setCreated(must(await api.POST('/partners', { body: fields })));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(false);
    }
  };
  if (created) {
    return (
      <Dialog title={`Partner ${created.partner.name} created`} onClose={() => props.onClose(created.partner.name)} wide>
        <p>Send the bank its api key and secret over your usual secure channel.</p>
        <dl class="facts">
          <dt>Api key</dt><dd class="mono">{created.partner.apiKey}</dd>
        </dl>
        <SecretOnce label="Secret" secret={created.secret} />
        <div class="buttons">
          <button type="button" class="primary" onClick={() => props.onClose(created.partner.name)}>Done</button>
        </div>
      </Dialog>
    );
  }
  return (
    <Dialog title="New partner" onClose={() => props.onClose()} wide>
      {error && <ErrorNote>{error}</ErrorNote>}
      <PartnerForm busy={busy} submitLabel="Create partner" onSubmit={(f) => void create(f)} onCancel={() => props.onClose()} />
    </Dialog>
  );
}
