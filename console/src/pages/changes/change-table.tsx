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

function show(v: unknown): string {
  if (v === undefined) return '—';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** before → after, field by field, only the fields that differ (secrets are never in an entry). */
export function changedFields(c: Change): { field: string; before: string; after: string }[] {
  const before = c.before ?? {};
  const after = c.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  return fields
    .filter((f) => JSON.stringify(before[f]) !== JSON.stringify(after[f]))
    .map((f) => ({ field: f, before: c.before ? show(before[f]) : '—', after: c.after ? show(after[f]) : '—' }));
}

export function ChangeTable(props: { items: Change[]; showPartner: boolean; caption: string }) {
  return (
    <div class="table-wrap">
      <table>
        <caption class="sr-only">{props.caption}</caption>
        <thead>
          <tr>
            <th scope="col">When</th><th scope="col">Who</th>{props.showPartner && <th scope="col">Partner</th>}<th scope="col">What</th><th scope="col">Before → after</th>
          </tr>
        </thead>
        <tbody>
          {props.items.map((c) => (
            <tr key={c.id}>
              <td class="nowrap">{utc(c.at)}</td>
              <td>{c.actor.name} <span class="muted">({c.actor.type})</span></td>
              {props.showPartner && <td><Link to={`/partners/${encodeURIComponent(c.partner)}`}>{c.partner}</Link></td>}
              <td>{ACTIONS[c.action] ?? c.action}</td>
              <td>
                <ul class="diff">
                  {changedFields(c).map((d) => <li key={d.field}><code>{d.field}</code>: <span class="before">{d.before}</span> → <span class="after">{d.after}</span></li>)}
                </ul>
              </td>
            </tr>
          ))}
          {props.items.length === 0 && <tr><td colSpan={props.showPartner ? 5 : 4} class="muted">No change recorded.</td></tr>}
        </tbody>
      </table>
    </div>
  );
}
