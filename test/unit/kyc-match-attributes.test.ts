import fc from 'fast-check';
import { MatchAttributes } from '../../src/kyc-match/attribute-catalogue';
import { IdentityRecord } from '../../src/verification/ports/customer-records';
import { KycMatchResponse, matchAttributes, MatchOptions, scoreOf } from '../../src/kyc-match/match-attributes';
import { parseMatchRequest } from '../../src/kyc-match/match-request';
import { camaraFile } from '../support/camara-spec';
import { OpenApiSpec } from '../support/openapi-validator';

type Schema = Record<string, unknown>;

const SCORES: MatchOptions = { scores: true, idDocumentRequired: false };
const NO_SCORES: MatchOptions = { scores: false, idDocumentRequired: false };
const GATED: MatchOptions = { scores: true, idDocumentRequired: true };

const spec = OpenApiSpec.load(camaraFile('kyc-match.yaml'), '/kyc-match/v0.4');
const operation = spec.operation('post', '/kyc-match/v0.4/match') as Schema;
const exampleOf = (node: unknown, name: string): unknown => ((node as Schema).examples as Record<string, { value: unknown }>)[name].value;
const requestExample = exampleOf(((operation.requestBody as Schema).content as Schema)['application/json'], 'Two-Legged and Three-leg Access Token Example');
const responseExample = exampleOf((((operation.responses as Schema)['200'] as Schema).content as Schema)['application/json'], 'KYC_Match200Example') as Record<string, unknown>;
// The yaml does not forbid other properties; closed here, so a misspelt key fails the test.
const closedResponseSchema = { ...spec.resolve('#/components/schemas/KYC_MatchResponse'), additionalProperties: false };

function matched(request: MatchAttributes, record: IdentityRecord | undefined, options = SCORES): KycMatchResponse {
  const outcome = matchAttributes(request, record, options);
  if (outcome.kind !== 'matched') throw new Error(`refused: ${outcome.reason}`);
  return outcome.response;
}

/** A record that answers the yaml's request example with the yaml's example response's true / false / not_available. */
const exampleRecord: IdentityRecord = {
  idDocument: '66666666-Q', idDocumentType: 'passport', idDocumentExpiryDate: '2027-07-12',
  name: 'FEDERICA SÁNCHEZ ARJONA', middleNames: 'Sanchez', nameKanaHankaku: 'FEDERICA', nameKanaZenkaku: 'フェデリカ',
  familyNameAtBirth: 'YYYZ', address: 'TOKYO TO CHIYODA KU IIDABASHI 3 10 10', streetName: 'Nicolás Salmerón',
  streetNumber: '4', postalCode: '102-8460', region: 'TOKYO', country: 'jp', birthdate: '1978-08-23',
  email: 'abd@example.com', gender: 'FEMALE', cityOfBirth: 'Mostoles', countryOfBirth: 'es', nationality: 'ES',
};

describe('KYC Match comparison', () => {
  it('when the yaml\'s request example meets a record shaped like its response example, then the answer has the example\'s shape and conforms to KYC_MatchResponse', () => {
    const parsed = parseMatchRequest(requestExample);
    if (!parsed.ok) throw new Error(JSON.stringify(parsed.problems));
    const response = matched(parsed.attributes, exampleRecord) as Record<string, unknown>;
    const matchesOnly = (r: Record<string, unknown>) => Object.fromEntries(Object.entries(r).filter(([k]) => k.endsWith('Match')));
    expect(matchesOnly(response)).toEqual(matchesOnly(responseExample));
    const scored = Object.keys(response).filter((k) => k.endsWith('MatchScore')).sort();
    expect(scored).toEqual(['cityOfBirthMatchScore', 'emailMatchScore', 'familyNameAtBirthMatchScore', 'nameKanaZenkakuMatchScore']);
    expect(spec.validate(closedResponseSchema, responseExample, 'example')).toEqual([]);
    expect(spec.validate(closedResponseSchema, response, 'response')).toEqual([]);
  });

  it('when the subscriber has no record at all, then every attribute sent is not_available and nothing else is answered', () => {
    const outcome = matchAttributes({ givenName: 'Federica', birthdate: '1978-08-22', email: 'a@example.com' }, undefined, SCORES);
    expect(outcome).toEqual({
      kind: 'matched',
      response: { givenNameMatch: 'not_available', birthdateMatch: 'not_available', emailMatch: 'not_available' },
      summary: { compared: ['givenName', 'birthdate', 'email'], true: 0, false: 0, notAvailable: 3 },
    });
  });

  it('when the record lacks a field, holds it blank or not as a string, then that attribute is not_available', () => {
    const record = { familyName: '  ', locality: 42 } as unknown as IdentityRecord;
    expect(matched({ givenName: 'Ana', familyName: 'Ruiz', locality: 'Madrid' }, record))
      .toEqual({ givenNameMatch: 'not_available', familyNameMatch: 'not_available', localityMatch: 'not_available' });
  });

  it('when the record has no name, then name is compared with its given, middle and family names joined in that order', () => {
    const record = { givenName: 'Jean-Luc', middleNames: 'Marie', familyName: 'Picard' };
    expect(matched({ name: 'jean luc marie picard' }, record)).toEqual({ nameMatch: 'true' });
    expect(matched({ name: 'Picard Jean Luc Marie' }, record)).toEqual({ nameMatch: 'false', nameMatchScore: expect.any(Number) as unknown });
    expect(matched({ name: 'Jean Luc Picard' }, { givenName: 'Jean Luc', familyName: 'Picard' })).toEqual({ nameMatch: 'true' });
  });

  it('when the record has a name, then name is compared with it and not with the parts', () => {
    const record = { name: 'J. L. Picard', givenName: 'Jean-Luc', familyName: 'Picard' };
    expect(matched({ name: 'Jean Luc Picard' }, record)).toMatchObject({ nameMatch: 'false' });
  });

  it('when the record holds the kana reading in one width only, then a reading sent in the other width is compared with it', () => {
    expect(matched({ nameKanaHankaku: 'ﾔﾏﾀﾞ ﾀﾛｳ' }, { nameKanaZenkaku: 'ヤマダ タロウ' })).toEqual({ nameKanaHankakuMatch: 'true' });
    expect(matched({ nameKanaZenkaku: 'ヤマダ タロウ' }, { nameKanaHankaku: 'ﾔﾏﾀﾞ ﾀﾛｳ' })).toEqual({ nameKanaZenkakuMatch: 'true' });
  });

  it('when a scored attribute differs, then its score is floor(Jaro-Winkler × 100) of the normalised values', () => {
    expect(matched({ givenName: 'Dwayne' }, { givenName: 'DUANE' })).toEqual({ givenNameMatch: 'false', givenNameMatchScore: 84 });
    expect(matched({ familyName: 'Martha' }, { familyName: 'Marhtá' })).toEqual({ familyNameMatch: 'false', familyNameMatchScore: 96 });
    expect(matched({ cityOfBirth: 'Dixon' }, { cityOfBirth: 'DICKSONX' })).toEqual({ cityOfBirthMatch: 'false', cityOfBirthMatchScore: 81 });
    // 8/9 + 0.1 × 1/9 is exactly 0.9, which floating point holds as 0.8999…: the score is 90, not 89.
    expect(matched({ familyName: 'Rosa' }, { familyName: 'Rhosas' })).toEqual({ familyNameMatch: 'false', familyNameMatchScore: 90 });
  });

  it('when a score is computed for any two different values, then it is a whole number from 0 to 99', () => {
    fc.assert(fc.property(fc.string({ maxLength: 40 }), fc.string({ maxLength: 40 }), (a, b) => {
      fc.pre(a !== b);
      const s = scoreOf(a, b);
      return s !== undefined && Number.isInteger(s) && s >= 0 && s <= 99;
    }));
  });

  it('when a value is longer than the score limit, then the attribute is false without a score', () => {
    expect(matched({ address: 'Calle Mayor 1' }, { address: 'x'.repeat(5000) })).toEqual({ addressMatch: 'false' });
  });

  it('when scores are turned off, then a false carries no score', () => {
    expect(matched({ givenName: 'Dwayne', email: 'a@example.com' }, { givenName: 'DUANE', email: 'b@example.com' }, NO_SCORES))
      .toEqual({ givenNameMatch: 'false', emailMatch: 'false' });
  });

  it('when an attribute the yaml does not score differs, then it is false without a score', () => {
    expect(matched({ birthdate: '1978-08-22', postalCode: '28001', gender: 'MALE', country: 'ES' },
      { birthdate: '1978-08-21', postalCode: '28002', gender: 'FEMALE', country: 'PT' }))
      .toEqual({ birthdateMatch: 'false', postalCodeMatch: 'false', genderMatch: 'false', countryMatch: 'false' });
  });

  it('when values differ only as normalisation allows, then they match', () => {
    expect(matched(
      { idDocument: 'ab-12.34 5', givenName: 'José', familyName: "O'Brien", email: 'Abc@Example.com', nationality: 'es' },
      { idDocument: 'AB12345', givenName: 'JOSE', familyName: 'O Brien', email: 'abc@example.com', nationality: 'ES' },
    )).toEqual({ idDocumentMatch: 'true', givenNameMatch: 'true', familyNameMatch: 'true', emailMatch: 'true', nationalityMatch: 'true' });
  });

  it('when attributes are compared, then the summary names them with the counts and holds no value', () => {
    const outcome = matchAttributes(
      { givenName: 'Ana', familyName: 'Ruiz', birthdate: '1990-01-01', email: 'ana@example.com' },
      { givenName: 'ANA', familyName: 'Ruíz-Pérez', birthdate: '1990-01-01' }, SCORES);
    expect(outcome.summary).toEqual({ compared: ['givenName', 'familyName', 'birthdate', 'email'], true: 2, false: 1, notAvailable: 1 });
  });

  it('when a record value differs from the request, then neither the answer nor the summary contains it', () => {
    const record: IdentityRecord = { givenName: 'Zebulon', familyName: 'Quixote', email: 'zq@secret.example', idDocument: 'ZQ999' };
    const outcome = matchAttributes({ givenName: 'Ana', familyName: 'Ruiz', email: 'ana@example.com', idDocument: 'X1' }, record, SCORES);
    const text = JSON.stringify(outcome).toLowerCase();
    for (const value of Object.values(record)) expect(text).not.toContain(String(value).toLowerCase());
  });
});

describe('KYC Match idDocument gate', () => {
  const record: IdentityRecord = { idDocument: 'AB-12345', givenName: 'Ana' };

  it('when idDocument is required and not sent, then the match is refused with ID_DOCUMENT_REQUIRED and nothing is compared', () => {
    expect(matchAttributes({ givenName: 'Ana' }, record, GATED))
      .toEqual({ kind: 'refused', reason: 'ID_DOCUMENT_REQUIRED', summary: { compared: [], true: 0, false: 0, notAvailable: 0 } });
  });

  it('when idDocument is required and differs from the record\'s, then the match is refused with ID_DOCUMENT_MISMATCH', () => {
    expect(matchAttributes({ idDocument: 'AB12346', givenName: 'Ana' }, record, GATED)).toMatchObject({ kind: 'refused', reason: 'ID_DOCUMENT_MISMATCH' });
  });

  it('when idDocument is required and the record holds none, or there is no record, then the match is refused with ID_DOCUMENT_MISMATCH', () => {
    expect(matchAttributes({ idDocument: 'AB12345', givenName: 'Ana' }, { givenName: 'Ana' }, GATED)).toMatchObject({ kind: 'refused', reason: 'ID_DOCUMENT_MISMATCH' });
    expect(matchAttributes({ idDocument: 'AB12345', givenName: 'Ana' }, undefined, GATED)).toMatchObject({ kind: 'refused', reason: 'ID_DOCUMENT_MISMATCH' });
  });

  it('when idDocument is required and matches after normalisation, then every attribute sent is compared', () => {
    expect(matchAttributes({ idDocument: 'ab 123.45', givenName: 'Ana', familyName: 'Ruiz' }, record, GATED)).toEqual({
      kind: 'matched',
      response: { idDocumentMatch: 'true', givenNameMatch: 'true', familyNameMatch: 'not_available' },
      summary: { compared: ['idDocument', 'givenName', 'familyName'], true: 2, false: 0, notAvailable: 1 },
    });
  });

  it('when idDocument is not required, then a request without it, or with another one, is compared as usual', () => {
    expect(matched({ givenName: 'Ana' }, record)).toEqual({ givenNameMatch: 'true' });
    expect(matched({ idDocument: 'ZZ1', givenName: 'Ana' }, record)).toEqual({ idDocumentMatch: 'false', givenNameMatch: 'true' });
  });
});
