import fc from 'fast-check';
import { parsePartners } from '../../src/partners/file-partner-registry';
import { AUDIT_TEXT_MAX, auditText } from '../../src/audit/audit-text';

// Any UTF-16 code unit: NUL, controls and lone surrogates included.
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 600 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)), maxLength: 600 }));

function unsafeUnits(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const n = s.charCodeAt(i);
    const high = n >= 0xd800 && n <= 0xdbff;
    const low = n >= 0xdc00 && n <= 0xdfff;
    if (n < 0x20 || (n >= 0x7f && n <= 0x9f)) out.push(n);
    else if (high && !(s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdfff)) out.push(n);
    else if (low && !(s.charCodeAt(i - 1) >= 0xd800 && s.charCodeAt(i - 1) <= 0xdbff)) out.push(n);
  }
  return out;
}

describe('audit text: what a caller-supplied value becomes in the audit record', () => {
  it('when any string is given, then the result holds no control character or lone surrogate and fits the bound', () => {
    fc.assert(fc.property(anyText, (s) => {
      const t = auditText(s);
      expect(unsafeUnits(t)).toEqual([]);
      expect(t.length).toBeLessThanOrEqual(AUDIT_TEXT_MAX);
    }), { numRuns: 2000 });
  });

  it('when the value is printable, then it is kept as it is', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (s) => {
      if (unsafeUnits(s).length === 0) expect(auditText(s)).toBe(s);
    }));
    expect(auditText('dpv:Fraud\u0000Prevention\n')).toBe('dpv:Fraud\\u0000Prevention\\u000a');
  });

  it('when a registry purpose is any string, then the registry refuses it naming the field, or the audit trail keeps it unchanged', () => {
    fc.assert(fc.property(anyText, (purpose) => {
      let partners;
      try {
        partners = parsePartners({ partners: [{ name: 'p', apiKey: 'partner-key', secret: 'partner-secret', operations: ['kyc'], purpose }] }, 'partners.json', {});
      } catch (err) {
        expect((err as Error).message).toMatch(/purpose/);
        return;
      }
      expect(auditText(partners[0].purpose ?? '')).toBe(partners[0].purpose ?? '');
    }), { numRuns: 1000 });
  });
});
