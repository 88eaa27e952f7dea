import { stringify } from 'csv-stringify/sync';

// C0 controls, DEL, C1 controls: matching them is this pattern's purpose.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
const NAMED: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\u001b': '\\e' };

/**
 * A stored value as a terminal may show it: a newline would forge a row, an escape sequence
 * would drive the reader's terminal. Control characters become visible escapes (`\n`, `\r`,
 * `\t`, `\e`, else `\xHH`); the store keeps the value as it is.
 */
export function printable(value: string): string {
  return value.replace(CONTROL, (c) => NAMED[c] ?? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** A plain-text table: columns padded to their widest cell, a rule under the header; every cell printable. */
export function formatTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const safe = rows.map((r) => r.map(printable));
  const widths = headers.map((h, i) => Math.max(h.length, ...safe.map((r) => r[i].length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...safe.map(line)].join('\n');
}

/**
 * CSV for a spreadsheet (RFC 4180 quoting by csv-stringify). A cell starting with `=`, `+`, `-`,
 * `@`, tab or carriage return would run as a formula when opened: csv-stringify's
 * `escape_formulas` prefixes it with `'`. Control characters are made printable first, so the
 * output is as safe on a terminal as the table.
 */
export function formatCsv(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  return stringify([headers, ...rows.map((r) => r.map(printable))], { escape_formulas: true, record_delimiter: 'unix' }).trimEnd();
}
