/** Longest text an audit field keeps; a token claim is bounded at 256 characters, escaping can lengthen it. */
export const AUDIT_TEXT_MAX = 512;

/*
 * Control characters (C0 with NUL, DEL, C1), format characters (the bidirectional embeddings,
 * overrides and isolates U+202A-202E and U+2066-2069, the marks U+200E/200F/061C, zero-width
 * characters, U+FEFF, the tag characters), the line and paragraph separators U+2028/2029, and
 * UTF-16 surrogates that are not part of a pair. A right-to-left override in a claim would make
 * the text a reviewer reads differ from the bytes stored (CVE-2021-42574, "Trojan Source").
 */
// The whole tag block U+E0000-E007F, its unassigned U+E0000 and U+E007F included: invisible either way.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u{E0000}-\u{E007F}]/gu;

/** Each UTF-16 unit of c as `\uXXXX` (an astral format character takes two). */
function escapeUnits(c: string): string {
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`;
  return out;
}

/**
 * A caller-supplied value as the audit trail stores it. PostgreSQL's text type refuses NUL, and
 * one refused value used to hold back every record queued behind it; a newline or an escape
 * sequence would also forge rows or drive the terminal of whoever reads the trail. So control
 * and format characters and lone surrogates become visible `\uXXXX` escapes (the value stays
 * readable and distinguishable), and the length is bounded, cut on a whole character.
 */
export function auditText(value: string, max = AUDIT_TEXT_MAX): string {
  const escaped = value.replace(UNSAFE, escapeUnits);
  if (escaped.length <= max) return escaped;
  const cut = escaped.slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}
