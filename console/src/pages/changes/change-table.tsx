import type { Schemas } from '../../api/client';
import { utc } from '../../format';
import { Link } from '../../router';

type Change = Schemas['ChangeEntry'];

const ACTIONS: Record<Change['action'], string> = {
  'partner.create': 'created',
  'partner.update': 'changed',
  'partner.import': 'imported',
  'secret.rotate': 'secret rotated',
  'secret.revoke': 'secret revoked',
};

interface SecretListed { id: string; validUntil?: string | null }

/** A field's value as a person reads it: secrets by id and end of validity, lists joined, nothing as "none". */
function show(field: string, v: unknown): string {
  if (v === undefined || v === null) return 'none';
  if (field === 'secrets' && Array.isArray(v)) {
    return (v as SecretListed[]).map((s) => (s.validUntil ? `${s.id} (until ${utc(s.validUntil)})` : s.id)).join(', ') || 'none';
  }
  if (Array.isArray(v)) return v.map(String).join(', ') || 'none';
  if (field === 'rateLimit' && typeof v === 'object') {
    const r = v as { perSecond?: number; burst?: number };
    return `${r.perSecond}/s, burst ${r.burst}`;
  }
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** before → after, only the fields that differ (secrets appear by id only: an entry never holds one). */
export function changedFields(c: Change): { field: string; before?: string; after?: string }[] {
  const before = c.before ?? {};
  const after = c.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]))
    .map((f) => ({ field: f, ...(c.before ? { before: show(f, before[f]) } : {}), ...(c.after ? { after: show(f, after[f]) } : {}) }));
}

function Diff(props: { change: Change }) {
  return (
    <ul class="diff">
      {changedFields(props.change).map((d) => (
        <li key={d.field}>
          <code>{d.field}</code>{' '}
          {d.before !== undefined && <span class="before">{d.before}</span>}
          {d.before !== undefined && d.after !== undefined && ' → '}
          {d.after !== undefined && <span class="after">{d.after}</span>}
        </li>
      ))}
    </ul>
  );
}

export function ChangeTable(props: { items: Change[]; showPartner: boolean; caption: string }) {
  return (
    <div class="table-wrap">
      <table class="stack">
        <caption class="sr-only">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">When</th><th scope="col">Who</th>{props.showPartner && <th scope="col">Partner</th>}<th scope="col">What</th><th scope="col">Change (before → after)</th>
          </tr>
        </thead>
        <tbody>
          {props.items.map((c) => (
            <tr key={c.id}>
              <td data-label="When" class="nowrap">{utc(c.at)}</td>
              <td data-label="Who"><span>{c.actor.name} <span class="muted">({c.actor.type})</span></span></td>
              {props.showPartner && <td data-label="Partner" class="nowrap"><Link to={`/partners/${encodeURIComponent(c.partner)}`}>{c.partner}</Link></td>}
              <td data-label="What">{ACTIONS[c.action] ?? c.action}</td>
              <td data-label="Change"><Diff change={c} /></td>
            </tr>
          ))}
          {props.items.length === 0 && <tr><td colSpan={props.showPartner ? 5 : 4} class="muted">No change recorded.</td></tr>}
        </tbody>
      </table>
    </div>
  );
}
