import { ComparisonKind } from '../../src/kyc-match/attribute-catalogue';
import { normalise, normaliseCode, normaliseKana, normaliseText } from '../../src/kyc-match/normalise';

describe('KYC Match normalisation', () => {
  it.each<[string, string, string]>([
    ['accents', 'José', 'JOSE'],
    ['accents on capitals and cedilla', 'FRANÇOIS LEFÈVRE', 'francois lefevre'],
    ['case', 'federica sanchez', 'FEDERICA SANCHEZ'],
    ['spacing', '  Federica   Sanchez\tArjona ', 'Federica Sanchez Arjona'],
    ['apostrophe', "O'Brien", 'O Brien'],
    ['typographic apostrophe', 'O’Brien', "o'brien"],
    ['hyphen', 'Jean-Luc', 'Jean Luc'],
    ['en dash', 'Jean–Luc', 'jean-luc'],
    ['dots and commas', 'St. James, Street', 'St James Street'],
    ['full-width Latin (NFKC)', 'Ｆｅｄｅｒｉｃａ', 'federica'],
    ['German sharp s', 'Straße', 'STRASSE'],
    ['capital sharp s', 'STRAẞE', 'strasse'],
    ['Turkish dotted capital I', 'İZMİR', 'izmir'],
    ['Turkish dotless i', 'Işık', 'ISIK'],
    ['Danish ø', 'Søren Kierkegaard', 'Soren Kierkegaard'],
    ['Polish ł', 'Łódź', 'Lodz'],
    ['Croatian đ', 'Đurđević', 'Durdevic'],
    ['ligatures æ and œ', 'Æsir Œuvre', 'aesir oeuvre'],
    ['Icelandic þ and ð', 'Þórður', 'thordur'],
    ['Catalan l·l', 'Col·lecció', 'colleccio'],
    ['Greek final sigma', 'ΟΔΥΣΣΕΑΣ', 'οδυσσεασ'],
  ])('when free text differs only by %s, then both sides normalise the same', (_case, a, b) => {
    expect(normaliseText(a)).toBe(normaliseText(b));
  });

  it.each<[string, string, string]>([
    ['a different letter', 'Jose', 'Josa'],
    ['a missing space', 'OBrien', "O'Brien"],
    ['a Cyrillic short i (й is a letter, not и with an accent)', 'Андрей', 'Андреи'],
    ['a Japanese voiced mark (ダ is not タ)', 'ヤマダ', 'ヤマタ'],
    ['a Japanese long vowel mark', 'サトー', 'サト'],
    ['a Devanagari vowel sign (a combining mark that is part of the letter)', 'किताब', 'कताब'],
  ])('when free text differs by %s, then it stays different', (_case, a, b) => {
    expect(normaliseText(a)).not.toBe(normaliseText(b));
  });

  it('when a free-text value is normalised, then the result is lower case, single-spaced and trimmed', () => {
    expect(normaliseText("  D'ARCY-Ó  Connor. ")).toBe('d arcy o connor');
  });

  it.each<[string, string, string]>([
    ['half-width vs full-width katakana', 'ﾔﾏﾀﾞ ﾀﾛｳ', 'ヤマダ タロウ'],
    ['hiragana vs katakana', 'やまだ たろう', 'ヤマダ タロウ'],
    ['ideographic space vs space', 'ヤマダ\u3000タロウ', 'ヤマダ タロウ'],
    ['middle dot (half- and full-width) vs space', 'ﾔﾏﾀﾞ･ﾀﾛｳ', 'ヤマダ・タロウ'],
    ['long vowel mark widths', 'ｻﾄｰ', 'サトー'],
    ['full-width Latin, as in the yaml example', 'Ｆｅｄｅｒｉｃａ', 'federica'],
  ])('when a kana reading differs only by %s, then both sides normalise the same', (_case, a, b) => {
    expect(normaliseKana(a)).toBe(normaliseKana(b));
  });

  it('when a kana reading has a small kana where the other has a full-size one, then it stays different', () => {
    expect(normaliseKana('キョウコ')).not.toBe(normaliseKana('キヨウコ'));
  });

  it.each<[string, string]>([
    ['ab-12.34 5', 'AB12345'],
    ['ＡＢ１２３４５', 'AB12345'],
    ['ab\u201312\u00a034', 'AB1234'],
    ['66666666q', '66666666Q'],
  ])('when the document number %p is normalised, then it is %p', (raw, expected) => {
    expect(normaliseCode(raw)).toBe(expected);
  });

  it.each<[ComparisonKind, string, string, boolean]>([
    ['email', 'Abc@Example.COM', 'abc@example.com', true],
    ['email', 'abc@example.com', 'abd@example.com', false],
    ['country', 'es', 'ES', true],
    ['country', 'ES', 'PT', false],
    ['code', '102-8460', '1028460', true],
    ['date', '1978-08-22', '1978-08-22', true],
    ['date', '1978-08-22', '1978-8-22', false],
    ['enum', 'MALE', 'MALE', true],
    ['enum', 'MALE', 'male', false],
  ])('when %s values %p and %p are normalised, then equal is %p', (kind, a, b, equal) => {
    expect(normalise(kind, a) === normalise(kind, b)).toBe(equal);
  });
});
