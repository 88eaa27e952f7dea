import { parseRfc3339 } from '../../src/kernel/rfc3339';

describe('the shared RFC 3339 parser', () => {
  test.each([
    ['2099-01-01T00:00:00Z', Date.UTC(2099, 0, 1)],
    ['2099-01-01t00:00:00z', Date.UTC(2099, 0, 1)],
    ['2024-02-29T12:00:00+03:00', Date.UTC(2024, 1, 29, 9)],
    ['2099-12-31T23:59:59.999999999-00:30', Date.UTC(2100, 0, 1, 0, 29, 59, 999)],
    ['0050-06-01T00:00:00Z', Date.UTC(2000, 5, 1) - 1950 * 365.2425 * 86_400_000],
    ['2000-02-29T00:00:00Z', Date.UTC(2000, 1, 29)],
    ['2099-01-01T00:00:00-23:59', Date.UTC(2099, 0, 1, 23, 59)],
    ['9999-12-31T23:59:59.999+00:00', Date.UTC(9999, 11, 31, 23, 59, 59, 999)],
  ])('when given %s, then it is that instant', (text, ms) => {
    // Year 50 is computed through setUTCFullYear, never Date.UTC's 1900 offset for years below 100.
    if (text.startsWith('0050')) expect(new Date(parseRfc3339(text) as number).getUTCFullYear()).toBe(50);
    else expect(parseRfc3339(text)).toBe(ms);
  });

  test.each([
    '2099-12-31T23:59:60Z', '2099-13-01T00:00:00Z', '2099-00-10T00:00:00Z', '2099-02-30T00:00:00Z',
    '2023-02-29T00:00:00Z', '2099-04-31T00:00:00Z', '2099-01-01T24:00:00Z', '2099-01-01T00:60:00Z',
    '2099-01-01T00:00:00+24:00', '2099-01-01T00:00:00+01:60', '2099-01-01T00:00:00', '2099-01-01 00:00:00Z',
    '2099-01-01T00:00:00.Z', '2099-01-01T00:00:00.1234567890Z', '1900-02-29T00:00:00Z', '2099-06-31T00:00:00Z',
    '2099-01-01T00:00:00+0100', '+02099-01-01T00:00:00Z', '2099-1-01T00:00:00Z', ' 2099-01-01T00:00:00Z', '2099-01-01T00:00:00Z\n', '1717753038', '', 'tomorrow',
  ])('when given %s, then it is refused (undefined), never NaN', (text) => {
    expect(parseRfc3339(text)).toBeUndefined();
  });

  test('when given a value that is not a string, then it is refused', () => {
    for (const v of [undefined, null, 0, {}, ['2099-01-01T00:00:00Z']]) expect(parseRfc3339(v)).toBeUndefined();
  });
});
