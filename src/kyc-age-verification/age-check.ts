import { parseFullDate } from '../kernel/zoned-date';

export type AgeCheck = 'true' | 'false' | 'not_available';

/**
 * Age in whole years on `today` (YYYY-MM-DD in TIMEZONE) of someone born on `birthdate`: the
 * years since, less one before this year's birthday. Born on 29 February: a year's birthday in a
 * common year is 1 March (the day after 28 February), as most civil codes count it.
 */
export function ageOn(birthdate: string, today: string): number | undefined {
  const born = parseFullDate(birthdate);
  const now = parseFullDate(today);
  if (born === undefined || now === undefined) return undefined;
  const beforeBirthday = now[1] < born[1] || (now[1] === born[1] && now[2] < born[2]);
  return now[0] - born[0] - (beforeBirthday ? 1 : 0);
}

/** The yaml's ageCheck: age >= threshold; "not_available" without a usable birth date (or one after today). */
export function ageCheck(birthdate: string | undefined, today: string, threshold: number): AgeCheck {
  const age = birthdate === undefined ? undefined : ageOn(birthdate, today);
  if (age === undefined || age < 0) return 'not_available';
  return age >= threshold ? 'true' : 'false';
}

/**
 * identityMatchScore (0–100): the share of the attributes the record could be compared on that
 * matched; undefined when none could be (the yaml makes the score optional). One figure for all
 * the attributes sent, never a per-attribute answer.
 */
export function identityMatchScore(tally: { matched: number; mismatched: number }): number | undefined {
  const compared = tally.matched + tally.mismatched;
  return compared === 0 ? undefined : Math.round((100 * tally.matched) / compared);
}
