import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { expectErrorInfo, subscriberWith } from '../support/kyc-match-fixtures';

/*
 * KYC Age Verification 0.2.1 (CONTRACT §13), the first API built as a declaration: the age from
 * the record's birth date on today's date, the record's verification flag, one overall identity
 * score, KYC Match's allowance, the subject rules; identity values never echoed. Real server and
 * simulator; every reply is checked against the official yaml by the harness.
 */

jest.setTimeout(60_000);
const VERIFY = '/kyc-age-verification/v0.2/verify';
const SCOPE = 'kyc-age-verification:verify';
const LIMIT = 4;

/** The birth date of someone who turns `years` today (UTC; the harness's TIMEZONE is the demo's, a day's edge is avoided by using a past year's date). */
function bornYearsAgo(years: number, dayOffset: number): string {
  const d = new Date();
  d.setUTCFullYear(d.getUTCFullYear() - years);
  d.setUTCDate(d.getUTCDate() + dayOffset);
  return d.toISOString().slice(0, 10);
}

describe('KYC Age Verification', () => {
  let c: CamaraHarness;
  let token: string;

  beforeAll(async () => {
    c = await startCamaraHarness({ env: { KYC_MATCH_MAX_PER_NUMBER_PER_DAY: String(LIMIT) } });
    token = await c.tokens.twoLegged({ scope: SCOPE });
  });
  afterAll(async () => {
    await c?.close();
  });

  it('when the record is old enough, then "true" with its verification flag; a threshold above the age, "false"; no record, "not_available"', async () => {
    expect((await c.call(VERIFY, { phoneNumber: '+255712000011', ageThreshold: 18 }, { token })).body).toEqual({ ageCheck: 'true', verifiedStatus: true });
    expect((await c.call(VERIFY, { phoneNumber: '+255712000012', ageThreshold: 120 }, { token })).body).toEqual({ ageCheck: 'false', verifiedStatus: false });
    expect((await c.call(VERIFY, { phoneNumber: '+255712000001', ageThreshold: 18 }, { token })).body).toEqual({ ageCheck: 'not_available' });
  });

  it('when contentLock and parentalControl are asked for, then the HLR\'s flags as "true"/"false"; not asked, or unknown to the HLR, then absent', async () => {
    const ask = { ageThreshold: 18, includeContentLock: true, includeParentalControl: true };
    expect((await c.call(VERIFY, { phoneNumber: '+255712000012', ...ask }, { token })).body).toEqual({
      ageCheck: 'true', verifiedStatus: false, contentLock: 'true', parentalControl: 'true',
    });
    expect((await c.call(VERIFY, { phoneNumber: '+255712000011', ...ask }, { token })).body).toMatchObject({ contentLock: 'false', parentalControl: 'false' });
    expect((await c.call(VERIFY, { phoneNumber: '+255712000012', ageThreshold: 18 }, { token })).body).toEqual({ ageCheck: 'true', verifiedStatus: false });
    expect((await c.call(VERIFY, { phoneNumber: '+255712000001', ...ask }, { token })).body).toEqual({ ageCheck: 'not_available' });
  });

  it('when the birthday is tomorrow or was yesterday, then the age counts whole years on today\'s date', async () => {
    const notYet = subscriberWith(c, { birthdate: bornYearsAgo(18, 2) }, '25571240');
    const already = subscriberWith(c, { birthdate: bornYearsAgo(18, -2) }, '25571240');
    expect((await c.call(VERIFY, { phoneNumber: notYet, ageThreshold: 18 }, { token })).body).toEqual({ ageCheck: 'false' });
    expect((await c.call(VERIFY, { phoneNumber: already, ageThreshold: 18 }, { token })).body).toEqual({ ageCheck: 'true' });
  });

  it('when identity attributes are sent, then one overall score and never a per-attribute answer or a value of the record', async () => {
    const r = await c.call(VERIFY, { phoneNumber: '+255712000011', ageThreshold: 18, givenName: 'Jose', familyName: 'Nunez', birthdate: '1987-04-21' }, { token });
    expect(r.body).toEqual({ ageCheck: 'true', verifiedStatus: true, identityMatchScore: 67 });
    expect(r.text).not.toMatch(/José|Núñez|1987|Jose|Nunez/);
  });

  it('when the body breaks the schema, then 400 naming the problem, OUT_OF_RANGE for a threshold outside 0–120, never echoing a value', async () => {
    expectErrorInfo(await c.call(VERIFY, { phoneNumber: '+255712000011' }, { token }), 400, 'INVALID_ARGUMENT');
    expectErrorInfo(await c.call(VERIFY, { phoneNumber: '+255712000011', ageThreshold: 121 }, { token }), 400, 'OUT_OF_RANGE');
    expectErrorInfo(await c.call(VERIFY, { phoneNumber: '+255712000011', ageThreshold: 18.5 }, { token }), 400, 'INVALID_ARGUMENT');
    const bad = await c.call(VERIFY, { phoneNumber: '+255712000011', ageThreshold: 18, email: 'secret-value' }, { token });
    expectErrorInfo(bad, 400, 'INVALID_ARGUMENT');
    expect(bad.text).not.toContain('secret-value');
    const extra = await c.call(VERIFY, { phoneNumber: '+255712000011', ageThreshold: 18, gender: 'MALE' }, { token });
    expectErrorInfo(extra, 400, 'INVALID_ARGUMENT');
    expect(extra.text).toContain('gender');
  });

  it('when no token names the number and the body has none, then 422 MISSING_IDENTIFIER; a three-legged token and a body number, 422 UNNECESSARY_IDENTIFIER', async () => {
    expectErrorInfo(await c.call(VERIFY, { ageThreshold: 18 }, { token }), 422, 'MISSING_IDENTIFIER');
    const three = await c.tokens.threeLegged('+255712000011', { scope: SCOPE });
    expectErrorInfo(await c.call(VERIFY, { phoneNumber: '+255712000011', ageThreshold: 18 }, { token: three }), 422, 'UNNECESSARY_IDENTIFIER');
    expect((await c.call(VERIFY, { ageThreshold: 18 }, { token: three })).body).toEqual({ ageCheck: 'true', verifiedStatus: true });
  });

  it('when a token lacks the scope, then 403; an unknown number, 404', async () => {
    const other = await c.tokens.twoLegged({ scope: 'kyc-match:match' });
    expectErrorInfo(await c.call(VERIFY, { phoneNumber: '+255712000011', ageThreshold: 18 }, { token: other }), 403, 'PERMISSION_DENIED');
    expectErrorInfo(await c.call(VERIFY, { phoneNumber: '+255719999999', ageThreshold: 18 }, { token }), 404, 'IDENTIFIER_NOT_FOUND');
  });

  it('when thresholds are asked about one number, then they spend the same per-number allowance as KYC Match: after the limit, both answer 429', async () => {
    const phone = subscriberWith(c, { birthdate: '1990-01-01', givenName: 'Ana' }, '25571241');
    const both = await c.tokens.twoLegged({ scope: `${SCOPE} kyc-match:match` });
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT - 1; i++) statuses.push((await c.call(VERIFY, { phoneNumber: phone, ageThreshold: 30 + i }, { token: both })).status);
    statuses.push((await c.call('/kyc-match/v0.4/match', { phoneNumber: phone, givenName: 'Ana' }, { token: both })).status);
    expect(statuses).toEqual(Array(LIMIT).fill(200));
    expectErrorInfo(await c.call(VERIFY, { phoneNumber: phone, ageThreshold: 18 }, { token: both }), 429, 'TOO_MANY_REQUESTS');
    expectErrorInfo(await c.call('/kyc-match/v0.4/match', { phoneNumber: phone, givenName: 'Ana' }, { token: both }), 429, 'TOO_MANY_REQUESTS');
  });
});
