/** Longest text an audit field keeps; a token claim is bounded at 256 characters, escaping can lengthen it. */
export const AUDIT_TEXT_MAX = 512;

// C0 controls (NUL included), DEL, C1 controls, and UTF-16 surrogates that are not part of a pair.
// Matching control characters is this pattern's purpose.
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * A caller-supplied value as the audit trail stores it. PostgreSQL's text type refuses NUL, and
 * one refused value used to hold back every record queued behind it; a newline or an escape
 * sequence would also forge rows or drive the terminal of whoever reads the trail. So control
 * characters and lone surrogates become visible `\uXXXX` escapes (the value stays readable and
 * distinguishable), and the length is bounded, cut on a whole character.
 */
export function auditText(value: string, max = AUDIT_TEXT_MAX): string {
  const escaped = value.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  if (escaped.length <= max) return escaped;
  const cut = escaped.slice(0, max);
  return /[\ud800-\udbff]$/.test(cut) ? cut.slice(0, -1) : cut;
}
