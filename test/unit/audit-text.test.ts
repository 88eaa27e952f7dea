import fc from 'fast-check';
import { parsePartners } from '../../src/partners/file-partner-registry';
import { AUDIT_TEXT_MAX, auditText } from '../../src/audit/audit-text';

// The bidirectional controls (embeddings, overrides, isolates, marks) and other invisible format characters.
const BIDI = [0x061c, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x2028, 0x2029, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e,
  0x2060, 0x2066, 0x2067, 0x2068, 0x2069, 0xfeff];
const formatChar = fc.constantFrom(...BIDI.map((n) => String.fromCharCode(n)), '\u{e0001}', '\u{e0041}');

// Any UTF-16 code unit: NUL, controls, lone surrogates and format characters included.
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 600 }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n)), maxLength: 600 }),
  fc.string({ unit: fc.oneof(formatChar, fc.constantFrom('a', ' ', '\u05d0', '\u{1f600}')), maxLength: 300 }));

function unsafeUnits(s: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const n = s.charCodeAt(i);
    const high = n >= 0xd800 && n <= 0xdbff;
    const low = n >= 0xdc00 && n <= 0xdfff;
    if (n < 0x20 || (n >= 0x7f && n <= 0x9f) || BIDI.includes(n)) out.push(n);
    else if (high && n === 0xdb40 && s.charCodeAt(i + 1) >= 0xdc00 && s.charCodeAt(i + 1) <= 0xdc7f) out.push(n);
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
    }), { numRuns: 2000, examples: [['\u{e0000}'], ['\u{e007f}']] });
  });

  it('when the value is printable, then it is kept as it is', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 100 }), (s) => {
      if (unsafeUnits(s).length === 0 && !/[\p{Cf}\p{Zl}\p{Zp}]/u.test(s)) expect(auditText(s)).toBe(s);
    }));
    expect(auditText('dpv:Fraud\u0000Prevention\n')).toBe('dpv:Fraud\\u0000Prevention\\u000a');
  });

  it('when a value holds a right-to-left override or another bidirectional control, then each is escaped as a control character is', () => {
    expect(auditText('dpv:Fraud\u202eNoitneverp')).toBe('dpv:Fraud\\u202eNoitneverp');
    for (const n of [0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c]) {
      expect(auditText(`a${String.fromCharCode(n)}b`)).toBe(`a\\u${n.toString(16).padStart(4, '0')}b`);
    }
    // An astral tag character (invisible) becomes its two escaped units; an emoji and Hebrew stay as they are.
    expect(auditText('x\u{e0041}y')).toBe('x\\udb40\\udc41y');
    expect(auditText('\u05e9\u05dc\u05d5\u05dd \u{1f600}')).toBe('\u05e9\u05dc\u05d5\u05dd \u{1f600}');
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
