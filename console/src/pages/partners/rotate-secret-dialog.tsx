import { useState } from 'preact/hooks';
import { api, must, Schemas } from '../../api/client';
import { Dialog } from '../../components/dialog';
import { ErrorNote } from '../../components/notes';
import { SecretOnce } from '../../components/secret-once';
import { utc } from '../../format';

const GRACES: { seconds: number; label: string }[] = [
  { seconds: 3600, label: '1 hour' },
  { seconds: 86400, label: '1 day (default)' },
  { seconds: 7 * 86400, label: '7 days' },
  { seconds: 30 * 86400, label: '30 days (the most)' },
];

/** Rotation: choose the grace, then the new secret, shown this once. */
export function RotateSecretDialog(props: { partner: string; onClose: (rotated: boolean) => void }) {
  const [grace, setGrace] = useState(86400);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [rotated, setRotated] = useState<Schemas['RotatedSecret'] | null>(null);
  const rotate = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setRotated(must(await api.POST('/partners/{name}/secrets', { params: { path: { name: props.partner } }, body: { graceSeconds: grace } })));
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  if (rotated) {
    return (
      <Dialog title={`New secret for ${props.partner}`} onClose={() => props.onClose(true)} wide>
        <SecretOnce label="New secret" secret={rotated.secret} />
        <p>{rotated.previousValidUntil
          ? <>The previous secret keeps working until <strong>{utc(rotated.previousValidUntil)}</strong>; revoke it sooner once the bank uses the new one.</>
          : 'There was no previous secret.'}</p>
        <div class="buttons"><button type="button" class="primary" onClick={() => props.onClose(true)}>Done</button></div>
      </Dialog>
    );
  }
  return (
    <Dialog title={`Rotate the secret of ${props.partner}`} onClose={() => props.onClose(false)}>
      <form class="form" onSubmit={(e) => void rotate(e)}>
        {error && <ErrorNote>{error}</ErrorNote>}
        <p>A new secret is made and shown once. Both the new and the current secret sign requests and obtain tokens until the grace period ends.</p>
        <div class="field">
          <label for="rotate-grace">Keep the current secret valid for</label>
          <select id="rotate-grace" value={String(grace)} onChange={(e) => setGrace(Number(e.currentTarget.value))}>
            {GRACES.map((g) => <option key={g.seconds} value={String(g.seconds)}>{g.label}</option>)}
          </select>
        </div>
        <div class="buttons">
          <button type="submit" class="primary" disabled={busy}>Rotate secret</button>
          <button type="button" onClick={() => props.onClose(false)}>Cancel</button>
        </div>
      </form>
    </Dialog>
  );
}
