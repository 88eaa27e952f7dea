import { parseRfc3339 } from '../kernel/rfc3339';
import { parseFullDate } from '../kernel/zoned-date';
import { AuditMatchSummary } from '../audit/ports/audit-trail';
import { createMsisdnNormaliser } from '../kernel/msisdn';
import { UsageError } from './args';
import { openAuditReader, strictArgs } from './audit-store';
import { CliIo } from './io';
import { formatTable } from './table';

export const AUDIT_USAGE = 'audit --msisdn N [--since T] [--until T]              who asked about a number (T: ISO 8601 date or date-time; until is exclusive)';

const DAY_MS = 86_400_000;

/** An RFC 3339 full-date (midnight UTC) or date-time with a zone; anything else is a usage error naming the option. */
export function parseInstant(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const ms = parseRfc3339(parseFullDate(value) === undefined ? value : `${value}T00:00:00Z`);
  if (ms === undefined) throw new UsageError(`--${name} must be an ISO 8601 date or date-time, e.g. 2026-11-01 or 2026-11-01T12:00:00+03:00`);
  return ms;
}

/** `verify-customer audit --msisdn N [--since --until]` (CONTRACT §9): every record about one number. */
export async function auditCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const values = strictArgs(argv, { msisdn: { type: 'string' }, since: { type: 'string' }, until: { type: 'string' } });
  if (!values.msisdn) throw new UsageError(`--msisdn is required\n  ${AUDIT_USAGE}`);
  const normalise = createMsisdnNormaliser({ countryCode: io.env.COUNTRY_CODE || '255', nsnLength: Number(io.env.NSN_LENGTH || 9) });
  const msisdn = normalise(values.msisdn);
  if (msisdn === null) throw new UsageError('--msisdn is not a valid number for COUNTRY_CODE and NSN_LENGTH');
  const since = parseInstant('since', values.since, 0);
  const until = parseInstant('until', values.until, Date.now() + DAY_MS);
  if (since >= until) throw new UsageError('--since must be before --until');

  const reader = await openAuditReader(io);
  try {
    const records = await reader.byMsisdn(msisdn, since, until);
    io.out(`${records.length} record(s) for ${msisdn}`);
    if (records.length === 0) return 0;
    // KYC Match's summary (names and counts, never values) only when some record has one.
    const withMatch = records.some((r) => r.match !== undefined);
    const matchOf = (m: AuditMatchSummary | undefined) => (m === undefined ? '-'
      : `${m.compared.join(',')}: ${m.true} true, ${m.false} false, ${m.notAvailable} not_available`);
    io.out(formatTable(
      ['time', 'partner', 'interface', 'operation', 'code', 'status', 'purpose', 'txn_id', 'correlator', 'replayed', ...(withMatch ? ['match'] : [])],
      records.map((r) => [new Date(r.timeMs).toISOString(), r.partner, r.interface, r.operation, r.code, String(r.httpStatus),
        r.purpose ?? '-', r.txnId ?? '-', r.correlator, r.replayed ? 'yes' : 'no', ...(withMatch ? [matchOf(r.match)] : [])]),
    ));
    return 0;
  } finally {
    await reader.close();
  }
}
