import type { Partner } from '../../api/client';
import { utc } from '../../format';

/** A partner's secrets by id and dates only: the API never returns a secret's value in a read. */
export function SecretsTable(props: { partner: Partner; canRevoke: boolean; onRevoke: (id: string) => void }) {
  const now = Date.now();
  return (
    <div class="table-wrap">
      <table class="compact stack">
        <caption class="sr-only">Secrets of {props.partner.name}</caption>
        <thead><tr><th scope="col">Secret id</th><th scope="col">Created</th><th scope="col">Valid until</th>{props.canRevoke && <th scope="col"><span class="sr-only">Actions</span></th>}</tr></thead>
        <tbody>
          {props.partner.secrets.map((s) => (
            <tr key={s.id}>
              <td data-label="Secret id" class="mono">{s.id}</td>
              <td data-label="Created" class="nowrap">{utc(s.createdAt)}</td>
              <td data-label="Valid until">{s.validUntil === null ? 'until rotated or revoked' : <span>{utc(s.validUntil)} {Date.parse(s.validUntil) > now ? <span class="badge warn">in grace</span> : <span class="badge">expired</span>}</span>}</td>
              {props.canRevoke && <td data-label=""><button type="button" class="small danger" aria-label={`Revoke secret ${s.id}`} onClick={() => props.onRevoke(s.id)}>Revoke</button></td>}
            </tr>
          ))}
          {props.partner.secrets.length === 0 && <tr><td colSpan={props.canRevoke ? 4 : 3} class="muted">No secret: the partner cannot sign in.</td></tr>}
        </tbody>
      </table>
    </div>
  );
}
