import { UsageError } from './args';
import { openAuditReader, strictArgs } from './audit-store';
import { CliIo } from './io';
import { formatCsv, formatTable, printable } from './table';

export const USAGE_USAGE = 'usage --month YYYY-MM [--partner P] [--csv]          billable counts per partner, operation and outcome (UTC month)';

/** `verify-customer usage --month YYYY-MM [--partner P] [--csv]` (CONTRACT §9): what finance bills from. */
export async function usageCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const values = strictArgs(argv, { month: { type: 'string' }, partner: { type: 'string' }, csv: { type: 'boolean' } });
  const month = values.month;
  if (!month || !/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw new UsageError(`--month YYYY-MM is required\n  ${USAGE_USAGE}`);
  const reader = await openAuditReader(io);
  try {
    const rows = await reader.usage(month, values.partner);
    if (values.csv) {
      io.out(formatCsv(['month', 'partner', 'operation', 'code', 'http_status', 'count', 'replayed'],
        rows.map((r) => [month, r.partner, r.operation, r.code, String(r.httpStatus), String(r.count), String(r.replayed)])));
      return 0;
    }
    const total = rows.reduce((n, r) => n + r.count, 0);
    io.out(`usage for ${month} (UTC)${values.partner ? `, partner ${printable(values.partner)}` : ''}: ${total} verification(s)`);
    if (rows.length > 0) {
      io.out(formatTable(['partner', 'operation', 'code', 'status', 'count', 'replayed'],
        rows.map((r) => [r.partner, r.operation, r.code, String(r.httpStatus), String(r.count), String(r.replayed)])));
    }
    return 0;
  } finally {
    await reader.close();
  }
}
