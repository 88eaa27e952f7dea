import fc from 'fast-check';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { FULL, KYC_MATCH, KYC_MATCH_SCOPE, expectErrorInfo, subscriberWith } from '../support/kyc-match-fixtures';

/*
 * Bad input on KYC Match: unknown attributes, wrong types, dates that are not dates, empty and
 * odd bodies. Each gets a clear ErrorInfo valid against kyc-match.yaml (the harness checks),
 * never a 5xx, and no error message repeats the value sent (it may be someone's personal data).
 * FC_SEED / FC_RUNS reproduce or widen the generated part.
 */

jest.setTimeout(60_000);
const SEED = Number(process.env.FC_SEED ?? 4242);
const RUNS = Number(process.env.FC_RUNS ?? 100);

describe('KYC Match: bad input gets a clear ErrorInfo, never a 500', () => {
  let c: CamaraHarness;
  let token: string;
  let phone: string;

  beforeAll(async () => {
    c = await startCamaraHarness({ env: { KYC_MATCH_MAX_PER_NUMBER_PER_DAY: '1000000' } });
    token = await c.tokens.twoLegged({ scope: KYC_MATCH_SCOPE });
    phone = subscriberWith(c, FULL, '25571260');
  });
  afterAll(async () => {
    await c?.close();
  });

  const call = (body: unknown, contentType?: string) => c.call(KYC_MATCH, body, { token, ...(contentType ? { contentType } : {}) });
  const messageOf = (r: { body: unknown }) => String((r.body as { message?: unknown }).message);

  it('when email is an address the yaml\'s format: email accepts (a/b@, user%x@, x@y.z, generated ones), then it is compared (200), not refused', async () => {
    const generated = fc.sample(fc.emailAddress(), { numRuns: 20, seed: SEED });
    for (const email of ['a/b@example.com', 'user%x@example.com', 'x@y.z', ...generated]) {
      const r = await call({ phoneNumber: phone, email });
      expect([email, r.status, r.body]).toEqual([email, 200, { emailMatch: 'false' }]);
    }
    expect((await call({ phoneNumber: phone, email: FULL.email.toUpperCase() })).body).toEqual({ emailMatch: 'true' });
  });

  it('when the body names a property the yaml does not declare, alone or beside known ones, then 400 INVALID_ARGUMENT naming it', async () => {
    for (const body of [{ shoeSize: '44' }, { phoneNumber: phone, shoeSize: '44' }, { phoneNumber: phone, givenName: 'Amani', shoeSize: '44' }]) {
      const r = await call(body);
      expectErrorInfo(r, 400, 'INVALID_ARGUMENT');
      expect(messageOf(r)).toContain('"shoeSize"');
    }
    // Inherited names are data, never behaviour.
    expectErrorInfo(await call(`{"__proto__":{"givenName":"Amani"}}`), 400, 'INVALID_ARGUMENT');
  });

  it('when a value has the wrong type, then 400 INVALID_ARGUMENT naming the property and not the value', async () => {
    for (const [attr, value] of [['givenName', 42], ['birthdate', 19900517], ['gender', ['MALE']], ['email', { at: 'x' }], ['name', null],
      ['idDocument', true], ['phoneNumber', 255712000011], ['country', 'TZA'], ['idDocumentType', 'Passport']] as const) {
      const r = await call({ phoneNumber: phone, [attr]: value, ...(attr === 'phoneNumber' ? { givenName: 'Amani' } : {}) });
      expectErrorInfo(r, 400, 'INVALID_ARGUMENT');
      expect(messageOf(r)).toContain(attr);
    }
  });

  it('when a date is not a real YYYY-MM-DD day, then 400 INVALID_ARGUMENT', async () => {
    for (const date of ['2023-02-30', '2023-13-01', '1990-5-17', '17/05/1990', 'yesterday', '', '1990-05-17T00:00:00Z', '0000-00-00']) {
      for (const attr of ['birthdate', 'idDocumentExpiryDate']) {
        const r = await call({ phoneNumber: phone, [attr]: date });
        expectErrorInfo(r, 400, 'INVALID_ARGUMENT');
        if (date.length > 3) expect(messageOf(r)).not.toContain(date);
      }
    }
  });

  it('when the body is empty, not an object, not JSON or too large, then 400 INVALID_ARGUMENT', async () => {
    for (const body of ['', '{}', 'null', '[]', '"name"', '42', '{"name":', '{"name":"a"}}', `{"phoneNumber":"${phone}","name":"${'x'.repeat(9000)}"}`]) {
      expectErrorInfo(await call(body), 400, 'INVALID_ARGUMENT');
    }
    // Only blanks and punctuation could only ever match another nothing.
    for (const blank of ['   ', '-.-', '']) expectErrorInfo(await call({ phoneNumber: phone, givenName: blank }), 400, 'INVALID_ARGUMENT');
    expectErrorInfo(await call({ phoneNumber: phone, givenName: 'a'.repeat(257) }), 400, 'INVALID_ARGUMENT');
  });

  it('when the method, path or x-correlator is wrong, then 405, 404 or 400 as ErrorInfo', async () => {
    const get = await c.call(KYC_MATCH, undefined, { token, method: 'GET' });
    expectErrorInfo(get, 405, 'METHOD_NOT_ALLOWED');
    expect(get.headers.get('allow')).toBe('POST');
    expectErrorInfo(await c.call('/kyc-match/v0.4/matches', { phoneNumber: phone, givenName: 'Amani' }, { token }), 404, 'NOT_FOUND');
    expectErrorInfo(await c.call(KYC_MATCH, { phoneNumber: phone, givenName: 'Amani' }, { token, headers: { 'x-correlator': 'not valid!' } }), 400, 'INVALID_ARGUMENT');
    // One trailing slash and any case reach the operation, as on the other CAMARA routes.
    expect((await c.call('/KYC-Match/v0.4/match/', { phoneNumber: phone, givenName: 'Amani' }, { token })).status).toBe(200);
  });

  it('when bodies are generated from the attribute names with any JSON values, then every answer is 200 or a 400 ErrorInfo without the values', async () => {
    const names = [...Object.keys(FULL), 'phoneNumber', 'unknownThing'];
    const value = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom(...Object.values(FULL)), fc.integer(), fc.boolean(), fc.constant(null),
      fc.array(fc.string({ maxLength: 5 }), { maxLength: 2 }), fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)));
    const body = fc.dictionary(fc.constantFrom(...names), value, { maxKeys: 6 }).map((b) => ({ ...b, phoneNumber: typeof b.phoneNumber === 'string' && b.phoneNumber.length % 2 === 0 ? phone : b.phoneNumber ?? phone }));
    await fc.assert(fc.asyncProperty(body, async (b) => {
      const r = await call(b);
      if (r.status === 200) return;
      expect([400, 404, 422]).toContain(r.status);
      const message = messageOf(r);
      // The messages list the enums' values and the properties' names: those may appear.
      const vocabulary = `${names.join(' ')} passport national_id_card residence_permit diplomatic_id driver_licence social_security_id other MALE FEMALE OTHER`;
      for (const v of Object.values(b)) if (typeof v === 'string' && v.length >= 5 && v !== phone && !vocabulary.includes(v)) expect(message).not.toContain(v);
    }), { seed: SEED, numRuns: Math.max(1, RUNS), endOnFailure: true });
  });
});
