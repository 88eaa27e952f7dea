import { ageCheck, ageOn, identityMatchScore } from '../../src/kyc-age-verification/age-check';

describe('KYC Age Verification: the age in whole years', () => {
  it('when today is the day before, on, or after the birthday, then the age turns on the birthday itself', () => {
    expect(ageOn('2008-06-15', '2026-06-14')).toBe(17);
    expect(ageOn('2008-06-15', '2026-06-15')).toBe(18);
    expect(ageOn('2008-06-15', '2026-06-16')).toBe(18);
  });

  it('when born on 29 February, then in a common year the birthday is 1 March', () => {
    expect(ageOn('2008-02-29', '2026-02-28')).toBe(17);
    expect(ageOn('2008-02-29', '2026-03-01')).toBe(18);
    expect(ageOn('2008-02-29', '2028-02-29')).toBe(20);
  });

  it('when the age equals the threshold, then "true"; one below, "false"; no usable birth date, "not_available"', () => {
    expect(ageCheck('2008-06-15', '2026-06-15', 18)).toBe('true');
    expect(ageCheck('2008-06-15', '2026-06-14', 18)).toBe('false');
    expect(ageCheck(undefined, '2026-06-14', 18)).toBe('not_available');
    expect(ageCheck('2008-13-40', '2026-06-14', 18)).toBe('not_available');
    expect(ageCheck('2030-01-01', '2026-06-14', 0)).toBe('not_available');
  });

  it('when attributes were compared, then the score is the share that matched; none compared, no score', () => {
    expect(identityMatchScore({ matched: 2, mismatched: 1 })).toBe(67);
    expect(identityMatchScore({ matched: 3, mismatched: 0 })).toBe(100);
    expect(identityMatchScore({ matched: 0, mismatched: 0 })).toBeUndefined();
  });
});
