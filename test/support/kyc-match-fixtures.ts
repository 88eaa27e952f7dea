import { CamaraHarness, CamaraReply } from './camara-harness';

/*
 * Identity records and request values for the KYC Match suites. Every value is invented.
 * FULL holds every attribute; MATCHING sends each one as a caller would type it (other case,
 * no accents, other spacing), so "true" also proves normalisation; OTHER sends a well-formed
 * value that differs from the record.
 */

export const KYC_MATCH = '/kyc-match/v0.4/match';
export const KYC_MATCH_SCOPE = 'kyc-match:match';

export const FULL: Record<string, string> = {
  idDocument: 'X1234567Q', idDocumentType: 'passport', idDocumentExpiryDate: '2030-01-31',
  name: 'Amani Juma Mushi', givenName: 'Amani', familyName: 'Mushi', nameKanaHankaku: 'ｱﾏﾆ', nameKanaZenkaku: 'アマニ',
  middleNames: 'Juma', familyNameAtBirth: 'Mushi', address: 'Uhuru Street 7', streetName: 'Uhuru Street', streetNumber: '7',
  postalCode: '11102', region: 'Dar es Salaam', locality: 'Kariakoo', country: 'TZ', houseNumberExtension: 'B',
  birthdate: '1990-05-17', email: 'amani.mushi@example.com', gender: 'MALE', cityOfBirth: 'Moshi', countryOfBirth: 'TZ', nationality: 'TZ',
};

export const MATCHING: Record<string, string> = {
  ...FULL, idDocument: 'x-1234567-q', name: 'AMANI  juma mushi', givenName: 'amani', nameKanaHankaku: 'アマニ', nameKanaZenkaku: 'あまに',
  region: 'dar es salaam', country: 'tz', email: 'Amani.Mushi@Example.com', nationality: 'tz',
};

export const OTHER: Record<string, string> = {
  idDocument: 'Y7654321Z', idDocumentType: 'driver_licence', idDocumentExpiryDate: '2029-12-31',
  name: 'Amina Juma Mushi', givenName: 'Amina', familyName: 'Moshi', nameKanaHankaku: 'ｱﾐﾅ', nameKanaZenkaku: 'アミナ',
  middleNames: 'Jamal', familyNameAtBirth: 'Mosha', address: 'Uhuru Street 9', streetName: 'Uhuru Road', streetNumber: '9',
  postalCode: '11103', region: 'Arusha', locality: 'Kariakoo Market', country: 'KE', houseNumberExtension: 'C',
  birthdate: '1990-05-18', email: 'amina.mushi@example.com', gender: 'FEMALE', cityOfBirth: 'Mosha', countryOfBirth: 'KE', nationality: 'KE',
};

/** The attributes kyc-match.yaml scores (a `<attr>MatchScore` beside "false"). */
export const SCORED = ['name', 'givenName', 'familyName', 'nameKanaHankaku', 'nameKanaZenkaku', 'middleNames', 'familyNameAtBirth',
  'address', 'streetName', 'streetNumber', 'region', 'locality', 'email', 'cityOfBirth'];

let seq = 0;
/** A fresh active subscriber of the harness's simulator with this identity record (none: no record). */
export function subscriberWith(c: CamaraHarness, identity?: Record<string, string>, prefix = '25571230'): string {
  const msisdn = `${prefix}${String(++seq).padStart(4, '0')}`;
  c.h.sim.upsert({
    msisdn, status: 'active', paymentType: 'prepaid', iccid: `89255000000${msisdn.slice(-8)}`, lastSimSwapAt: null,
    ...(identity === undefined ? {} : { identity }),
  });
  return `+${msisdn}`;
}

export function expectErrorInfo(r: CamaraReply, status: number, code: string): void {
  expect({ status: r.status, body: r.body }).toEqual({ status, body: { status, code, message: expect.any(String) as unknown } });
  expect((r.body as { message: string }).message.length).toBeGreaterThan(10);
}
