import { readFileSync } from 'node:fs';
import { CamaraHarness, CamaraReply as Reply, startCamaraHarness } from '../support/camara-harness';
import { camaraFile } from '../support/camara-spec';
import { FULL, KYC_MATCH, KYC_MATCH_SCOPE, MATCHING, OTHER, SCORED, expectErrorInfo, subscriberWith } from '../support/kyc-match-fixtures';

/*
 * Conformance: every scenario of the official kyc-match.feature (read from ../shared/camara at
 * run time) is one test named after its tag, against the real server and simulator with real
 * access tokens. The harness validates every reply against kyc-match.yaml (ajv). The inventory
 * test at the end fails when the feature file has a tag this suite does not test.
 */

function featureTags(): string[] {
  return [...readFileSync(camaraFile('kyc-match.feature'), 'utf8').matchAll(/^\s*@(\S+)\s*$/gm)].map((m) => m[1]);
}

const tested = new Set<string>();
function scenario(tag: string, fn: () => Promise<void>): void {
  tested.add(tag);
  it(tag, fn);
}

const ATTRIBUTES = Object.keys(FULL);
/** The feature's "valid parameter combination": a few attributes besides the number. */
const COMBINATION = { givenName: MATCHING.givenName, familyName: MATCHING.familyName, birthdate: MATCHING.birthdate };

function expectCorrelated(r: Reply, correlator: string): void {
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(r.headers.get('x-correlator')).toBe(correlator);
}

const asObject = (r: Reply) => r.body as Record<string, unknown>;

describe('KYC Match conformance: the official scenarios (kyc-match.feature)', () => {
  // The feature sends many requests about one number: the guessing limit is shown in kyc-match-limits.
  const env = { KYC_MATCH_MAX_PER_NUMBER_PER_DAY: '100000' };
  /** KYC_MATCH_SCORES=true, turned on explicitly: scenario 3's scores. */
  let c: CamaraHarness;
  /** The default (KYC_MATCH_SCORES unset, off): "false" without a score (scenario 5). */
  let noScores: CamaraHarness;
  /** KYC_MATCH_ID_DOCUMENT_REQUIRED=true: the optional second-level validation (7, 12, 13). */
  let idRequired: CamaraHarness;
  let token: string;

  beforeAll(async () => {
    [c, noScores, idRequired] = await Promise.all([
      startCamaraHarness({ env: { ...env, KYC_MATCH_SCORES: 'true' } }),
      startCamaraHarness({ env }),
      startCamaraHarness({ env: { ...env, KYC_MATCH_ID_DOCUMENT_REQUIRED: 'true' } }),
    ]);
    token = await c.tokens.twoLegged({ scope: KYC_MATCH_SCOPE });
  });
  afterAll(async () => {
    await Promise.all([c?.close(), noScores?.close(), idRequired?.close()]);
  });

  const match = (t: CamaraHarness, body: unknown, o: { token?: string | null; correlator?: string } = {}) =>
    t.call(KYC_MATCH, body, { token: o.token === undefined ? token : o.token, headers: o.correlator ? { 'x-correlator': o.correlator } : {} });
  const tokenOf = (t: CamaraHarness) => t.tokens.twoLegged({ scope: KYC_MATCH_SCOPE });

  scenario('KYC_Match_1_success_request_response', async () => {
    const phone = subscriberWith(c, FULL);
    const twoLegged = await match(c, { phoneNumber: phone, ...COMBINATION }, { correlator: 'kyc-match-1a' });
    expectCorrelated(twoLegged, 'kyc-match-1a');
    expect(twoLegged.body).toEqual({ givenNameMatch: 'true', familyNameMatch: 'true', birthdateMatch: 'true' });
    const three = await c.tokens.threeLegged(phone, { scope: KYC_MATCH_SCOPE });
    const threeLegged = await match(c, COMBINATION, { token: three, correlator: 'kyc-match-1b' });
    expectCorrelated(threeLegged, 'kyc-match-1b');
    expect(threeLegged.body).toEqual(twoLegged.body);
    // The same number in the token and the body is consistent: no UNNECESSARY_IDENTIFIER here.
    expect((await match(c, { phoneNumber: phone, ...COMBINATION }, { token: three })).status).toBe(200);
  });

  scenario('KYC_Match_2_success_specific_property', async () => {
    const phone = subscriberWith(c, FULL);
    for (const attr of ATTRIBUTES) {
      const r = await match(c, { phoneNumber: phone, ...COMBINATION, [attr]: MATCHING[attr] }, { correlator: `kyc-match-2-${attr}` });
      expectCorrelated(r, `kyc-match-2-${attr}`);
      expect([attr, asObject(r)[`${attr}Match`]]).toEqual([attr, 'true']);
    }
  });

  scenario('KYC_Match_3_success_specific_property_score', async () => {
    const phone = subscriberWith(c, FULL);
    for (const attr of SCORED) {
      const r = await match(c, { phoneNumber: phone, [attr]: OTHER[attr] }, { correlator: `kyc-match-3-${attr}` });
      expectCorrelated(r, `kyc-match-3-${attr}`);
      const score = asObject(r)[`${attr}MatchScore`];
      expect([attr, asObject(r)[`${attr}Match`], Number.isInteger(score) && (score as number) >= 0 && (score as number) <= 99]).toEqual([attr, 'false', true]);
    }
  });

  scenario('KYC_Match_4_perfect_match_no_scores_returned', async () => {
    const phone = subscriberWith(c, FULL);
    for (const attr of ATTRIBUTES.filter((a) => a !== 'houseNumberExtension')) {
      const r = await match(c, { phoneNumber: phone, [attr]: FULL[attr] }, { correlator: `kyc-match-4-${attr}` });
      expectCorrelated(r, `kyc-match-4-${attr}`);
      expect([attr, r.body]).toEqual([attr, { [`${attr}Match`]: 'true' }]);
    }
  });

  scenario('KYC_Match_5_success_specific_property_false', async () => {
    const phone = subscriberWith(noScores, FULL);
    const t = await tokenOf(noScores);
    for (const attr of ATTRIBUTES.filter((a) => a !== 'houseNumberExtension')) {
      const r = await match(noScores, { phoneNumber: phone, [attr]: OTHER[attr] }, { token: t, correlator: `kyc-match-5-${attr}` });
      expectCorrelated(r, `kyc-match-5-${attr}`);
      expect([attr, r.body]).toEqual([attr, { [`${attr}Match`]: 'false' }]);
    }
  });

  scenario('KYC_Match_6_success_multiple_optional_parameter_combinations', async () => {
    const phone = subscriberWith(c, FULL);
    // A fixed pseudo-random walk over combinations (reproducible), each attribute matching, differing or absent.
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    for (let round = 0; round < 25; round++) {
      const body: Record<string, string> = { phoneNumber: phone };
      const expected: Record<string, string> = {};
      for (const attr of ATTRIBUTES) {
        const pick = next() % 3;
        if (pick === 0) continue;
        body[attr] = pick === 1 ? MATCHING[attr] : OTHER[attr];
        expected[`${attr}Match`] = pick === 1 ? 'true' : 'false';
      }
      if (Object.keys(expected).length === 0) continue;
      const r = await match(c, body, { correlator: `kyc-match-6-${round}` });
      expectCorrelated(r, `kyc-match-6-${round}`);
      expect(Object.fromEntries(Object.entries(asObject(r)).filter(([k]) => !k.endsWith('Score')))).toEqual(expected);
    }
  });

  scenario('KYC_Match_7_success_id_document_required', async () => {
    const phone = subscriberWith(idRequired, FULL);
    const r = await match(idRequired, { phoneNumber: phone, idDocument: MATCHING.idDocument, ...COMBINATION }, { token: await tokenOf(idRequired), correlator: 'kyc-match-7' });
    expectCorrelated(r, 'kyc-match-7');
    expect(r.body).toEqual({ idDocumentMatch: 'true', givenNameMatch: 'true', familyNameMatch: 'true', birthdateMatch: 'true' });
  });

  scenario('KYC_Match_401.1_expired_access_token', async () => {
    expectErrorInfo(await match(c, { phoneNumber: '+255712000011', ...COMBINATION }, { token: await c.tokens.expired({ scope: KYC_MATCH_SCOPE }) }), 401, 'UNAUTHENTICATED');
  });

  scenario('KYC_Match_401.2_invalid_access_token', async () => {
    const good = await c.tokens.external({ scope: KYC_MATCH_SCOPE });
    const tampered = `${good.slice(0, -4)}${good.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    for (const bad of ['not-a-jwt', tampered]) {
      expectErrorInfo(await match(c, { phoneNumber: '+255712000011', ...COMBINATION }, { token: bad }), 401, 'UNAUTHENTICATED');
    }
  });

  scenario('KYC_Match_401.3_no_header_authorization', async () => {
    expectErrorInfo(await match(c, { phoneNumber: '+255712000011', ...COMBINATION }, { token: null }), 401, 'UNAUTHENTICATED');
  });

  scenario('KYC_Match_400.1_no_request_body', async () => {
    expectErrorInfo(await match(c, undefined), 400, 'INVALID_ARGUMENT');
  });

  scenario('KYC_Match_400.2_empty_request_body', async () => {
    expectErrorInfo(await match(c, {}), 400, 'INVALID_ARGUMENT');
  });

  scenario('KYC_Match_400.3_invalid_argument', async () => {
    for (const body of [{ phoneNumber: '+255712000011', birthdate: '17/05/1990' }, { phoneNumber: '+255712000011', gender: 'male' },
      { phoneNumber: '+255712000011', name: 42 }, [COMBINATION], '{"name":']) {
      expectErrorInfo(await match(c, body), 400, 'INVALID_ARGUMENT');
    }
  });

  scenario('KYC_Match_10_invalid_param_combination', async () => {
    expectErrorInfo(await match(c, { phoneNumber: '+255712000011' }), 400, 'KNOW_YOUR_CUSTOMER.INVALID_PARAM_COMBINATION');
  });

  scenario('KYC_Match_11_phone_number_provided_does_not_match_the_token', async () => {
    const three = await c.tokens.threeLegged('+255712000012', { scope: KYC_MATCH_SCOPE });
    expectErrorInfo(await match(c, { phoneNumber: '+255712000011', ...COMBINATION }, { token: three }), 403, 'INVALID_TOKEN_CONTEXT');
  });

  scenario('KYC_Match_12_idDocument_required', async () => {
    const phone = subscriberWith(idRequired, FULL);
    expectErrorInfo(await match(idRequired, { phoneNumber: phone, ...COMBINATION }, { token: await tokenOf(idRequired) }), 403, 'KNOW_YOUR_CUSTOMER.ID_DOCUMENT_REQUIRED');
  });

  scenario('KYC_Match_13_idDocument_mismatch_when_idDocument_is_required', async () => {
    const t = await tokenOf(idRequired);
    const phone = subscriberWith(idRequired, FULL);
    expectErrorInfo(await match(idRequired, { phoneNumber: phone, idDocument: OTHER.idDocument, ...COMBINATION }, { token: t }), 403, 'KNOW_YOUR_CUSTOMER.ID_DOCUMENT_MISMATCH');
    // No record, or a record without a document: the document sent cannot be the one bound to the number.
    for (const identity of [undefined, { givenName: 'Amani' }]) {
      const other = subscriberWith(idRequired, identity);
      expectErrorInfo(await match(idRequired, { phoneNumber: other, idDocument: FULL.idDocument }, { token: t }), 403, 'KNOW_YOUR_CUSTOMER.ID_DOCUMENT_MISMATCH');
    }
  });

  scenario('KYC_Match_C02.01_phone_number_not_schema_compliant', async () => {
    for (const phoneNumber of ['255712000011', '+0255712000011', '+2557120000111234567', 255712000011]) {
      expectErrorInfo(await match(c, { phoneNumber, ...COMBINATION }), 400, 'INVALID_ARGUMENT');
    }
  });

  scenario('KYC_Match_C02.02_phone_number_not_found', async () => {
    for (const phoneNumber of ['+255799999999', '+255712000004']) {
      expectErrorInfo(await match(c, { phoneNumber, ...COMBINATION }), 404, 'IDENTIFIER_NOT_FOUND');
    }
  });

  scenario('KYC_Match_C02.04_missing_phone_number', async () => {
    expectErrorInfo(await match(c, COMBINATION), 422, 'MISSING_IDENTIFIER');
  });

  scenario('KYC_Match_C02.05_phone_number_not_supported', async () => {
    expectErrorInfo(await match(c, { phoneNumber: '+34629255833', ...COMBINATION }), 422, 'SERVICE_NOT_APPLICABLE');
  });

  it('when the feature file is read, then every one of its scenario tags has a test here', () => {
    const tags = featureTags();
    expect(tags.length).toBeGreaterThanOrEqual(20);
    expect(tags.filter((t) => !tested.has(t))).toEqual([]);
  });
});
