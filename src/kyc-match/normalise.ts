import { ComparisonKind } from './attribute-catalogue';

/*
 * What both sides of a KYC Match comparison become before they are compared (CONTRACT §11 and
 * docs/kyc-match.md, which gives the reasons for each choice). Pure functions of one value:
 * the request and the record go through the same one, so a rule can never favour a side.
 */

/**
 * Case folding. JavaScript has no Unicode case fold, and toLocaleLowerCase would make the
 * answer depend on a locale. Lower, upper, lower approximates the fold with the default
 * (locale-free) mappings: ß and ẞ become "ss", Turkish dotless ı becomes i (İ becomes i plus a
 * combining dot that the Latin step removes). Greek σ and ς come back from the round trip by
 * their place in the word, so both sides agree on them too.
 */
function fold(value: string): string {
  return value.toLowerCase().toUpperCase().toLowerCase();
}

/**
 * Latin letters that carry their "diacritic" in the letter itself, so NFD does not split
 * them: the usual ASCII spellings, as they appear in passports' machine-readable zones.
 * Applied after folding, so lower case only.
 */
const LATIN_LETTERS: Readonly<Record<string, string>> = {
  'ø': 'o', 'ł': 'l', 'đ': 'd', 'ð': 'd', 'ħ': 'h', 'ŧ': 't', 'ı': 'i',
  'æ': 'ae', 'œ': 'oe', 'þ': 'th',
};
const LATIN_LETTER = new RegExp(`[${Object.keys(LATIN_LETTERS).join('')}]`, 'gu');

/** A combining mark (or run of them) on a Latin letter; marks on other scripts are letters' parts. */
const LATIN_MARKS = /(\p{Script=Latin})\p{M}+/gu;

/**
 * Read as a space: `.,'-` (CONTRACT §11), their typographic forms (’ ‘ ʼ and the Unicode dash
 * punctuation, which NFKC leaves alone), and the katakana middle dot that separates a
 * Japanese name's parts (NFKC already turned the half-width one into it).
 */
const SEPARATORS = /[.,'’‘ʼ\p{Pd}・]/gu;

/** Catalan's l·l (ŀl after NFKC): written "l.l" or "ll" on forms, so the dot goes. */
const MIDDLE_DOT = /·/g;

const SPACES = /\s+/gu;

function collapse(value: string): string {
  return value.replace(SPACES, ' ').trim();
}

/** Hiragana and its iteration marks, read as the katakana of the same sound. */
function katakana(value: string): string {
  return value.replace(/[\u3041-\u3096\u309D\u309E]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0x60));
}

/**
 * Free text (names, address parts, places). NFKC (full-width and compatibility forms to
 * their plain letters), folded, then for Latin letters the diacritics removed; `.,'-` read
 * as spaces; whitespace collapsed and trimmed. NFC at the end puts back together what NFD
 * split in other scripts (ダ stays ダ, й stays й).
 */
export function normaliseText(value: string): string {
  const folded = fold(value.normalize('NFKC')).normalize('NFD');
  const latin = folded.replace(LATIN_MARKS, '$1').replace(LATIN_LETTER, (c) => LATIN_LETTERS[c] ?? c).replace(MIDDLE_DOT, '');
  return collapse(latin.normalize('NFC').replace(SEPARATORS, ' '));
}

/**
 * A name's reading in kana. NFKC turns half-width (hankaku) katakana into full-width
 * (zenkaku), joining a voiced mark to its letter (ﾀﾞ → ダ), so both widths compare equal;
 * hiragana is read as katakana; the rest is free text's rule.
 */
export function normaliseKana(value: string): string {
  return katakana(normaliseText(value));
}

/** An identifier: upper case, without whitespace, dots or dashes (CONTRACT §11: `idDocument`). */
export function normaliseCode(value: string): string {
  return value.normalize('NFKC').toUpperCase().replace(/[\s.\p{Pd}]/gu, '');
}

/** ISO 3166-1 alpha-2: case does not matter. */
export function normaliseCountry(value: string): string {
  return value.trim().toUpperCase();
}

/** E-mail: case-insensitive throughout (CONTRACT §11), though RFC 5321 lets a local part differ by case. */
export function normaliseEmail(value: string): string {
  return value.trim().toLowerCase();
}

/** The form of a value that is compared, by its attribute's kind. Dates and enums are exact. */
export function normalise(kind: ComparisonKind, value: string): string {
  switch (kind) {
    case 'text': return normaliseText(value);
    case 'kana': return normaliseKana(value);
    case 'code': return normaliseCode(value);
    case 'country': return normaliseCountry(value);
    case 'email': return normaliseEmail(value);
    case 'date':
    case 'enum': return value;
    default: {
      const unknown: never = kind;
      throw new Error(`unknown comparison kind ${String(unknown)}`);
    }
  }
}
