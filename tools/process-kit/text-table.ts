/** How a table is drawn: a Markdown table (pastes into docs) or plain columns for a terminal log. */
export interface TableStyle {
  markdown?: boolean;
  /** Columns padded on the right (text); every other column is right-aligned (numbers). */
  leftColumns?: readonly number[];
}

/** Rows under a header, each column as wide as its widest cell. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[], style: TableStyle = {}): string {
  const left = new Set(style.leftColumns ?? [0]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const cells = (row: readonly string[]) => widths.map((w, i) => (left.has(i) ? (row[i] ?? '').padEnd(w) : (row[i] ?? '').padStart(w)));
  if (!style.markdown) return [header, ...rows].map((r) => cells(r).join('  ')).join('\n');
  const line = (row: readonly string[]) => `| ${cells(row).join(' | ')} |`;
  const rule = `|${widths.map((w, i) => `${'-'.repeat(w + 1)}${left.has(i) ? '-' : ':'}`).join('|')}|`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}
