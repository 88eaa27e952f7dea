import { CamaraHarness, CamaraReply as Reply, startCamaraHarness } from '../support/camara-harness';
import { FULL, KYC_MATCH, KYC_MATCH_SCOPE, MATCHING, OTHER, SCORED, expectErrorInfo, subscriberWith } from '../support/kyc-match-fixtures';

/*
 * KYC Match 0.4.0 beyond its official scenarios, which the conformance kit runs as they are
 * (docs/conformance.md): every attribute rather than one, both token kinds, random
 * combinations, scores on and off, the idDocument gate. The harness validates every reply
 * against kyc-match.yaml (ajv).
 */

const ATTRIBUTES = Object.keys(FULL);
/** The feature's "valid parameter combination": a few attributes besides the number. */
const COMBINATION = { givenName: MATCHING.givenName, familyName: MATCHING.familyName, birthdate: MATCHING.birthdate };

function expectCorrelated(r: Reply, correlator: string): void {
  expect(r.status).toBe(200);
  expect(r.headers.get('content-type')).toMatch(/^application\/json/);
  expect(r.headers.get('x-correlator')).toBe(correlator);
}

const asObject = (r: Reply) => r.body as Record<string, unknown>;

describe('KYC Match: checks beyond the official scenarios', () => {
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

  it('when a matching combination is sent two- and three-legged, then the same answers, correlators echoed; the number in both is consistent', async () => {
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

  it('when any one attribute matches beside the combination, then its Match is "true"', async () => {
    const phone = subscriberWith(c, FULL);
    for (const attr of ATTRIBUTES) {
      const r = await match(c, { phoneNumber: phone, ...COMBINATION, [attr]: MATCHING[attr] }, { correlator: `kyc-match-2-${attr}` });
      expectCorrelated(r, `kyc-match-2-${attr}`);
      expect([attr, asObject(r)[`${attr}Match`]]).toEqual([attr, 'true']);
    }
  });

  it('when a scored attribute differs and scores are on, then "false" with an integer score of 0–99', async () => {
    const phone = subscriberWith(c, FULL);
    for (const attr of SCORED) {
      const r = await match(c, { phoneNumber: phone, [attr]: OTHER[attr] }, { correlator: `kyc-match-3-${attr}` });
      expectCorrelated(r, `kyc-match-3-${attr}`);
      const score = asObject(r)[`${attr}MatchScore`];
      expect([attr, asObject(r)[`${attr}Match`], Number.isInteger(score) && (score as number) >= 0 && (score as number) <= 99]).toEqual([attr, 'false', true]);
    }
  });

  it('when an attribute alone matches exactly, then "true" and nothing else, no score', async () => {
    const phone = subscriberWith(c, FULL);
    for (const attr of ATTRIBUTES.filter((a) => a !== 'houseNumberExtension')) {
      const r = await match(c, { phoneNumber: phone, [attr]: FULL[attr] }, { correlator: `kyc-match-4-${attr}` });
      expectCorrelated(r, `kyc-match-4-${attr}`);
      expect([attr, r.body]).toEqual([attr, { [`${attr}Match`]: 'true' }]);
    }
  });

  it('when an attribute alone differs and scores are off (the default), then "false" and no score', async () => {
    const phone = subscriberWith(noScores, FULL);
    const t = await tokenOf(noScores);
    for (const attr of ATTRIBUTES.filter((a) => a !== 'houseNumberExtension')) {
      const r = await match(noScores, { phoneNumber: phone, [attr]: OTHER[attr] }, { token: t, correlator: `kyc-match-5-${attr}` });
      expectCorrelated(r, `kyc-match-5-${attr}`);
      expect([attr, r.body]).toEqual([attr, { [`${attr}Match`]: 'false' }]);
    }
  });

  it('when 25 reproducible random combinations of matching, differing and absent attributes are sent, then each answer is exactly theirs', async () => {
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

  it('when the idDocument is required and the right one is sent, then every attribute is answered', async () => {
    const phone = subscriberWith(idRequired, FULL);
    const r = await match(idRequired, { phoneNumber: phone, idDocument: MATCHING.idDocument, ...COMBINATION }, { token: await tokenOf(idRequired), correlator: 'kyc-match-7' });
    expectCorrelated(r, 'kyc-match-7');
    expect(r.body).toEqual({ idDocumentMatch: 'true', givenNameMatch: 'true', familyNameMatch: 'true', birthdateMatch: 'true' });
  });


  it('when the token is not a JWT or its signature is altered, then 401 UNAUTHENTICATED', async () => {
    const good = await c.tokens.external({ scope: KYC_MATCH_SCOPE });
    const tampered = `${good.slice(0, -4)}${good.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`;
    for (const bad of ['not-a-jwt', tampered]) {
      expectErrorInfo(await match(c, { phoneNumber: '+255712000011', ...COMBINATION }, { token: bad }), 401, 'UNAUTHENTICATED');
    }
  });




  it('when a value is of the wrong format or type, or the body is not an object or truncated, then 400 INVALID_ARGUMENT', async () => {
    for (const body of [{ phoneNumber: '+255712000011', birthdate: '17/05/1990' }, { phoneNumber: '+255712000011', gender: 'male' },
      { phoneNumber: '+255712000011', name: 42 }, [COMBINATION], '{"name":']) {
      expectErrorInfo(await match(c, body), 400, 'INVALID_ARGUMENT');
    }
  });




  it('when the idDocument is required and differs, or the number has no record or no document, then 403 ID_DOCUMENT_MISMATCH', async () => {
    const t = await tokenOf(idRequired);
    const phone = subscriberWith(idRequired, FULL);
    expectErrorInfo(await match(idRequired, { phoneNumber: phone, idDocument: OTHER.idDocument, ...COMBINATION }, { token: t }), 403, 'KNOW_YOUR_CUSTOMER.ID_DOCUMENT_MISMATCH');
    // No record, or a record without a document: the document sent cannot be the one bound to the number.
    for (const identity of [undefined, { givenName: 'Amani' }]) {
      const other = subscriberWith(idRequired, identity);
      expectErrorInfo(await match(idRequired, { phoneNumber: other, idDocument: FULL.idDocument }, { token: t }), 403, 'KNOW_YOUR_CUSTOMER.ID_DOCUMENT_MISMATCH');
    }
  });

  it('when phoneNumber is not E.164, then 400 INVALID_ARGUMENT', async () => {
    for (const phoneNumber of ['255712000011', '+0255712000011', '+2557120000111234567', 255712000011]) {
      expectErrorInfo(await match(c, { phoneNumber, ...COMBINATION }), 400, 'INVALID_ARGUMENT');
    }
  });

  it('when the number is no subscriber or terminated, then 404 IDENTIFIER_NOT_FOUND', async () => {
    for (const phoneNumber of ['+255799999999', '+255712000004']) {
      expectErrorInfo(await match(c, { phoneNumber, ...COMBINATION }), 404, 'IDENTIFIER_NOT_FOUND');
    }
  });



});
