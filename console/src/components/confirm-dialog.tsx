import { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { Dialog } from './dialog';
import { ErrorNote } from './notes';

/** A destructive action behind a confirmation that names what will happen (STYLE.md). */
export function ConfirmDialog(props: { title: string; confirmLabel: string; children: ComponentChildren; onConfirm: () => Promise<void>; onClose: () => void }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      await props.onConfirm();
      props.onClose();
    } catch (e) {
      setError((e as Error).message);
      setBusy(false);
    }
  };
  return (
    <Dialog title={props.title} onClose={props.onClose}>
      {error && <ErrorNote>{error}</ErrorNote>}
      <div class="consequence">{props.children}</div>
      <div class="buttons">
        <button type="button" class="danger" disabled={busy} onClick={() => void confirm()}>{props.confirmLabel}</button>
        <button type="button" autoFocus onClick={props.onClose}>Cancel</button>
      </div>
    </Dialog>
  );
}
