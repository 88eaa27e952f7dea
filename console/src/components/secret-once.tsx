import { useState } from 'preact/hooks';

/**
 * A secret the admin API returned this once: shown in a read-only field with a copy button,
 * kept only in this component's memory. Closing the dialog forgets it; nothing shows it again.
 */
export function SecretOnce(props: { label: string; secret: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.secret);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  };
  return (
    <div class="secret-once">
      <label for="secret-value">{props.label}</label>
      <div class="secret-row">
        <input id="secret-value" class="mono" readOnly value={props.secret} onFocus={(e) => e.currentTarget.select()} />
        <button type="button" onClick={() => void copy()}>Copy</button>
      </div>
      <p class="warning">This is the only time the secret is shown. Store it now: it cannot be read again, only replaced.</p>
      <p role="status" class="muted copy-status">{copied === 'yes' ? 'Copied to the clipboard.' : copied === 'no' ? 'The browser refused the clipboard: select the field and copy it.' : ''}</p>
    </div>
  );
}
