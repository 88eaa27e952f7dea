import { jaroWinkler } from '../../src/kyc-match/jaro-winkler';

describe('KYC Match Jaro-Winkler similarity', () => {
  // Winkler (1990) and the examples every implementation quotes, prefix scale 0.1, prefix at most 4.
  it.each<[string, string, number]>([
    ['MARTHA', 'MARHTA', 0.961],
    ['DWAYNE', 'DUANE', 0.84],
    ['DIXON', 'DICKSONX', 0.813],
  ])('when %s is compared with %s, then the similarity is the published %f', (a, b, expected) => {
    expect(jaroWinkler(a, b)).toBeCloseTo(expected, 3);
    expect(jaroWinkler(b, a)).toBeCloseTo(expected, 3);
  });

  // Apache Commons Text's JaroWinklerSimilarity tests; elephant/hippo pins the match window to max(len)/2 - 1.
  it.each<[string, string, number]>([
    ['frog', 'fog', 0.925],
    ['hello', 'hallo', 0.88],
    ['elephant', 'hippo', 0.44166],
    ['ABC Corporation', 'ABC Corp', 0.90666],
    ['D N H Enterprises Inc', 'D & H Enterprises, Inc.', 0.95251],
    ["My Gym Children's Fitness Center", 'My Gym. Childrens Fitness', 0.942],
    ['PENNSYLVANIA', 'PENNCISYLVNIA', 0.89801],
  ])('when %p is compared with %p, then the similarity is Apache Commons Text\'s %f', (a, b, expected) => {
    expect(jaroWinkler(a, b)).toBeCloseTo(expected, 4);
  });

  it('when the first four characters agree, then the prefix bonus counts four, not five', () => {
    // Jaro(ABCDEFGH, ABCDEFXY) = (6/8 + 6/8 + 1) / 3 = 5/6; with l = 4: 5/6 + 0.4 × 1/6.
    expect(jaroWinkler('ABCDEFGH', 'ABCDEFXY')).toBeCloseTo(5 / 6 + 0.4 / 6, 10);
  });

  it('when the Jaro similarity is 0.7 or less, then no prefix bonus is added', () => {
    // Jaro(AB, AC) = (1/2 + 1/2 + 1) / 3 = 2/3 ≤ 0.7: the common "A" adds nothing.
    expect(jaroWinkler('AB', 'AC')).toBeCloseTo(2 / 3, 10);
  });

  it('when the strings are equal, then the similarity is 1; when nothing matches, 0', () => {
    expect(jaroWinkler('FEDERICA', 'FEDERICA')).toBe(1);
    expect(jaroWinkler('ABC', 'XYZ')).toBe(0);
    expect(jaroWinkler('', 'ABC')).toBe(0);
  });

  it('when a letter lies outside the UTF-16 basic plane, then it counts as one character, like any other', () => {
    // 𠮷 (U+20BB7, a surname character) is two UTF-16 units; counted as units the similarity would differ.
    expect(jaroWinkler('𠮷田太郎', '𠮷田次郎')).toBeCloseTo(jaroWinkler('ABCD', 'ABXD'), 10);
  });
});
