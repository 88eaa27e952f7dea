/*
 * Jaro-Winkler similarity (Winkler 1990, as in his strcmp95 and in Apache Commons Text):
 * characters match within a window of max(len)/2 - 1, half the out-of-order matches are
 * transpositions (whole ones), and a common prefix of up to 4 adds 0.1 per character of the
 * remaining distance once the Jaro similarity is above 0.7.
 *
 * Hand-written rather than a package because the two on npm each depart from that: jaro-winkler
 * 0.2.8 (unmaintained) counts UTF-16 units, so one astral letter is two characters;
 * @skyra/jaro-winkler 1.1.1 uses a window of max(len)/2 and a prefix of 5 when the first 4
 * characters agree. The published vectors in the tests pin this one down.
 */

const PREFIX_SCALE = 0.1;
const MAX_PREFIX = 4;
const BOOST_THRESHOLD = 0.7;

/** Jaro similarity of two sequences of code points, 0 to 1. */
function jaro(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  if (a.length === 0 || b.length === 0) return 0;
  const window = Math.max(0, Math.floor(Math.max(a.length, b.length) / 2) - 1);
  const aMatched = new Uint8Array(a.length);
  const bMatched = new Uint8Array(b.length);
  let matches = 0;
  for (let i = 0; i < a.length; i++) {
    const end = Math.min(b.length - 1, i + window);
    for (let j = Math.max(0, i - window); j <= end; j++) {
      if (bMatched[j] === 1 || a[i] !== b[j]) continue;
      aMatched[i] = 1;
      bMatched[j] = 1;
      matches++;
      break;
    }
  }
  if (matches === 0) return 0;
  let outOfOrder = 0;
  for (let i = 0, j = 0; i < a.length; i++) {
    if (aMatched[i] === 0) continue;
    while (bMatched[j] === 0) j++;
    if (a[i] !== b[j]) outOfOrder++;
    j++;
  }
  const transpositions = Math.floor(outOfOrder / 2);
  return (matches / a.length + matches / b.length + (matches - transpositions) / matches) / 3;
}

/** Jaro-Winkler similarity, 0 (nothing in common) to 1 (identical), over code points, not UTF-16 units. */
export function jaroWinkler(left: string, right: string): number {
  const a = [...left];
  const b = [...right];
  const j = jaro(a, b);
  if (j <= BOOST_THRESHOLD) return j;
  let prefix = 0;
  while (prefix < MAX_PREFIX && prefix < a.length && prefix < b.length && a[prefix] === b[prefix]) prefix++;
  return j + prefix * PREFIX_SCALE * (1 - j);
}
