import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { ATTRIBUTES } from '../../src/kyc-match/attribute-catalogue';
import { MAX_EMAIL_LENGTH, MAX_VALUE_LENGTH, parseMatchRequest } from '../../src/kyc-match/match-request';
import { camaraFile } from '../support/camara-spec';
import { OpenApiSpec } from '../support/openapi-validator';

type Schema = Record<string, unknown>;

const spec = OpenApiSpec.load(camaraFile('kyc-match.yaml'), '/kyc-match/v0.4');
const media = ((spec.operation('post', '/kyc-match/v0.4/match')!.requestBody as Schema).content as Schema)['application/json'] as Schema;
const requestExamples = Object.entries(media.examples as Record<string, { value: Record<string, unknown> }>);
const PHONE = '+34629255833';
/** Values too long to show in a test's name, by the name they are shown under. */
const LONG_VALUES: Record<string, string> = {
  'a 262-character address': `${'a'.repeat(250)}@example.com`,
  [`${MAX_VALUE_LENGTH + 1} characters`]: 'a'.repeat(MAX_VALUE_LENGTH + 1),
};

describe('KYC Match request validation', () => {
  it.each(requestExamples)('when the yaml\'s request example "%s" is parsed, then every attribute in it is accepted unchanged', (_name, { value }) => {
    const parsed = parseMatchRequest(value);
    const { phoneNumber, ...attributes } = value;
    expect(parsed).toEqual(phoneNumber === undefined ? { ok: true, attributes } : { ok: true, phoneNumber, attributes });
    expect(Object.keys(attributes)).toHaveLength(ATTRIBUTES.length);
  });

  it('when the body is an empty object, then it is INVALID_ARGUMENT (the feature file\'s 400.2)', () => {
    expect(parseMatchRequest({})).toEqual({ ok: false, problems: [{ code: 'INVALID_ARGUMENT', message: expect.any(String) as unknown }] });
  });

  it('when the body holds only phoneNumber, then it is KNOW_YOUR_CUSTOMER.INVALID_PARAM_COMBINATION\'s problem', () => {
    expect(parseMatchRequest({ phoneNumber: PHONE })).toMatchObject({ ok: false, problems: [{ code: 'INVALID_PARAM_COMBINATION' }] });
  });

  it('when the body carries a property the yaml does not declare, then INVALID_ARGUMENT naming it, not its value, whatever else is sent', () => {
    for (const body of [{ phoneNumber: PHONE, nickname: 'Anita' }, { phoneNumber: PHONE, givenName: 'Ana', nickname: 'Anita' }]) {
      const r = parseMatchRequest(body);
      expect(r).toMatchObject({ ok: false, problems: [{ code: 'INVALID_ARGUMENT', message: expect.stringContaining('"nickname"') as unknown }] });
      expect(JSON.stringify(r)).not.toContain('Anita');
    }
  });

  it('when an attribute is inherited rather than the body\'s own, then it is not an attribute sent', () => {
    const body: unknown = Object.assign(Object.create({ givenName: 'Ana' }) as object, { phoneNumber: PHONE });
    expect(parseMatchRequest(body)).toMatchObject({ ok: false, problems: [{ code: 'INVALID_PARAM_COMBINATION' }] });
  });

  it.each<[string, unknown]>([['null', null], ['an array', [{ givenName: 'Ana' }]], ['a string', 'givenName=Ana'], ['a number', 42]])(
    'when the body is %s, then it is INVALID_ARGUMENT', (_case, body) => {
      expect(parseMatchRequest(body)).toEqual({ ok: false, problems: [{ code: 'INVALID_ARGUMENT', message: 'the request body must be a JSON object' }] });
    });

  it.each<[string, unknown]>([
    ['phoneNumber', '629255833'],
    ['phoneNumber', '+0629255833'],
    ['birthdate', '1978-02-30'],
    ['birthdate', '22/08/1978'],
    ['idDocumentExpiryDate', '2027-07-12T00:00:00Z'],
    ['gender', 'male'],
    ['idDocumentType', 'PASSPORT'],
    ['email', 'federica.example.com'],
    ['email', 'a 262-character address'],
    ['country', 'ESP'],
    ['nationality', 'E1'],
    ['givenName', ''],
    ['givenName', ' -.\' '],
    ['idDocument', '--..'],
    ['address', `${MAX_VALUE_LENGTH + 1} characters`],
    ['familyName', 42],
    ['familyName', null],
    ['nameKanaZenkaku', ['ヤマダ']],
  ])('when %s is %p, then it is INVALID_ARGUMENT naming the property and not the value', (field, shown) => {
    const value = LONG_VALUES[String(shown)] ?? shown;
    const parsed = parseMatchRequest({ phoneNumber: PHONE, givenName: 'Ana', [field]: value });
    expect(parsed).toEqual({ ok: false, problems: [{ code: 'INVALID_ARGUMENT', field, message: expect.stringContaining(field) as unknown }] });
    if (!parsed.ok && typeof value === 'string' && value.trim().length > 2) expect(parsed.problems[0].message).not.toContain(value);
  });

  it('when several properties are wrong, then each is named once', () => {
    const parsed = parseMatchRequest({ birthdate: 'yesterday', gender: 'x', email: 'no' });
    expect(parsed.ok ? [] : parsed.problems.map((p) => p.field)).toEqual(['birthdate', 'email', 'gender']);
  });

  it('when values have the yaml\'s forms, then dates, enums, codes and addresses are accepted', () => {
    expect(parseMatchRequest({ birthdate: '2000-02-29', gender: 'FEMALE', idDocumentType: 'driver_licence', country: 'jp', email: 'Abc@Example.com' }))
      .toEqual({ ok: true, attributes: { idDocumentType: 'driver_licence', country: 'jp', birthdate: '2000-02-29', email: 'Abc@Example.com', gender: 'FEMALE' } });
    const longest = { email: `${'a'.repeat(242)}@example.com`, address: 'a'.repeat(MAX_VALUE_LENGTH) };
    expect(parseMatchRequest(longest)).toEqual({ ok: true, attributes: longest });
  });

  describe('email follows the yaml\'s `format: email` (ajv-formats, what the clients generated from the yaml check)', () => {
    const ajv = new Ajv();
    addFormats(ajv);
    const yamlEmail = ajv.compile({ type: 'string', format: 'email' });
    const accepted = (email: string) => parseMatchRequest({ email }).ok;

    it('when an address has the atext characters RFC 5321 allows (a/b, user%x) or a one-letter domain, then it is accepted', () => {
      for (const email of ['a/b@example.com', 'user%x@example.com', 'x@y.z', "o'brien+tag=1@mail.example.co.tz", '{x}|~^`!#$&*?@a-b.example']) {
        expect([email, yamlEmail(email), accepted(email)]).toEqual([email, true, true]);
      }
    });

    it('when addresses are generated from the format (fast-check emailAddress) or mutated, then the service accepts exactly what ajv-formats accepts', () => {
      const mutated = fc.tuple(fc.emailAddress(), fc.nat(), fc.constantFrom('', ' ', '@', '.', '..', '(', '"', '\\', '\u00e9', '-', '_'))
        .map(([e, at, insert]) => e.slice(0, at % (e.length + 1)) + insert + e.slice(at % (e.length + 1)));
      const sample = fc.oneof(fc.emailAddress(), mutated, fc.string({ maxLength: 40 }));
      let acceptedCount = 0;
      fc.assert(fc.property(sample, (email) => {
        const yaml = yamlEmail(email) && email.length <= MAX_EMAIL_LENGTH;
        if (yaml) acceptedCount++;
        expect([email, accepted(email)]).toEqual([email, yaml]);
      }), { numRuns: 3000 });
      // Positive control: the sample holds many addresses the format accepts, not only refusals.
      expect(acceptedCount).toBeGreaterThan(500);
    });
  });
});
