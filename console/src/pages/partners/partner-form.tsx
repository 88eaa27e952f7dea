import { useState } from 'preact/hooks';
import type { Partner, Schemas } from '../../api/client';
import { OPERATION_LABELS, OPERATIONS } from '../../format';

type Operation = Schemas['Operation'];

export interface PartnerFields {
  name: string;
  operations: Operation[];
  kind: 'partner' | 'internal';
  signature: 'md5' | 'hmac-sha256';
  rateLimit: Schemas['RateLimit'] | null;
  purpose: string | null;
}

/**
 * Create and edit share one form; the name is fixed once the partner exists. Empty rate
 * limit and purpose mean none (the API's null).
 */
export function PartnerForm(props: { initial?: Partner; busy: boolean; submitLabel: string; onSubmit: (fields: PartnerFields) => void; onCancel: () => void }) {
  const p = props.initial;
  const [name, setName] = useState(p?.name ?? '');
  const [operations, setOperations] = useState<Operation[]>(p?.operations ?? ['kyc']);
  const [kind, setKind] = useState<PartnerFields['kind']>(p?.kind ?? 'partner');
  const [signature, setSignature] = useState<PartnerFields['signature']>(p?.signature ?? 'hmac-sha256');
  const [perSecond, setPerSecond] = useState(p?.rateLimit ? String(p.rateLimit.perSecond) : '');
  const [burst, setBurst] = useState(p?.rateLimit ? String(p.rateLimit.burst) : '');
  const [purpose, setPurpose] = useState(p?.purpose ?? '');
  const toggle = (op: Operation, on: boolean) => setOperations((ops) => (on ? [...ops, op] : ops.filter((o) => o !== op)));
  const submit = (e: Event) => {
    e.preventDefault();
    props.onSubmit({
      name: name.trim(),
      operations: OPERATIONS.filter((o) => operations.includes(o)),
      kind,
      signature,
      rateLimit: perSecond === '' && burst === '' ? null : { perSecond: Number(perSecond), burst: Number(burst) },
      purpose: purpose.trim() === '' ? null : purpose.trim(),
    });
  };
  return (
    <form class="form" onSubmit={submit}>
      {!p && (
        <div class="field">
          <label for="partner-name">Name</label>
          <input id="partner-name" required maxLength={64} pattern="[A-Za-z0-9][A-Za-z0-9._\-]{0,63}" autoComplete="off"
            aria-describedby="partner-name-hint" value={name} onInput={(e) => setName(e.currentTarget.value)} />
          <p id="partner-name-hint" class="hint">Letters, digits, dot, dash, underscore; the bank's short name, e.g. <code>acme-bank</code>.</p>
        </div>
      )}
      <fieldset class="field">
        <legend>Operations</legend>
        <div class="checks">
          {OPERATIONS.map((op) => (
            <label key={op} class="check">
              <input type="checkbox" checked={operations.includes(op)} onChange={(e) => toggle(op, e.currentTarget.checked)} />
              {OPERATION_LABELS[op]} <code>{op}</code>
            </label>
          ))}
        </div>
      </fieldset>
      <div class="field-row">
        <div class="field">
          <label for="partner-kind">Kind</label>
          <select id="partner-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value as PartnerFields['kind'])}>
            <option value="partner">partner (a bank)</option>
            <option value="internal">internal (the operator's own app)</option>
          </select>
        </div>
        <div class="field">
          <label for="partner-signature">Legacy signature</label>
          <select id="partner-signature" value={signature} onChange={(e) => setSignature(e.currentTarget.value as PartnerFields['signature'])}>
            <option value="hmac-sha256">hmac-sha256</option>
            <option value="md5">md5 (older clients)</option>
          </select>
        </div>
      </div>
      <fieldset class="field">
        <legend>Rate limit <span class="muted">(empty: the service's default)</span></legend>
        <div class="field-row">
          <div class="field">
            <label for="partner-rate">Requests per second</label>
            <input id="partner-rate" type="number" min="0.001" step="any" inputMode="decimal" value={perSecond} required={burst !== ''} onInput={(e) => setPerSecond(e.currentTarget.value)} />
          </div>
          <div class="field">
            <label for="partner-burst">Burst</label>
            <input id="partner-burst" type="number" min="1" step="1" inputMode="numeric" value={burst} required={perSecond !== ''} onInput={(e) => setBurst(e.currentTarget.value)} />
          </div>
        </div>
      </fieldset>
      <div class="field">
        <label for="partner-purpose">Purpose</label>
        <input id="partner-purpose" maxLength={128} placeholder="dpv:FraudPreventionAndDetection" aria-describedby="partner-purpose-hint" value={purpose} onInput={(e) => setPurpose(e.currentTarget.value)} />
        <p id="partner-purpose-hint" class="hint">Recorded with each of its lookups in the audit trail.</p>
      </div>
      <div class="buttons">
        <button type="submit" class="primary" disabled={props.busy}>{props.submitLabel}</button>
        <button type="button" onClick={props.onCancel}>Cancel</button>
      </div>
    </form>
  );
}
