import { IdentityRecord } from './identity';

/**
 * Synthetic customer records, so a load test of KYC Match finds records for numbers the fixture
 * does not hold. Every field comes from the caller's per-number draws (no start time involved),
 * so a number's record is the same in every run and a load test can compute what to send.
 * A few names carry diacritics or an apostrophe so the service's normalisation is exercised too.
 * Invented names, streets and places; no real person's data.
 */
const GIVEN: readonly (readonly [string, 'MALE' | 'FEMALE'])[] = [
  ['Amina', 'FEMALE'], ['Baraka', 'MALE'], ['Neema', 'FEMALE'], ['Juma', 'MALE'], ['Zawadi', 'FEMALE'],
  ['Daudi', 'MALE'], ['Rehema', 'FEMALE'], ['Hamisi', 'MALE'], ['Zoë', 'FEMALE'], ['José', 'MALE'],
  ['Amélie', 'FEMALE'], ['Łukasz', 'MALE'], ['Subira', 'FEMALE'], ['Elia', 'MALE'], ['Halima', 'FEMALE'], ['Omari', 'MALE'],
];
const FAMILY = ['Mwakyusa', 'Kimaro', 'Mushi', 'Massawe', 'Lema', 'Mrema', 'Núñez', 'Dvořák', "O'Brien", 'Müller', 'Shayo', 'Temba'];
const STREETS = ['Uhuru', 'Samora', 'Bibi Titi', 'Morogoro', 'Kilwa', 'Ali Hassan Mwinyi', 'Nyerere', 'Sokoine'];
const PLACES: readonly (readonly [locality: string, region: string, postalCode: string])[] = [
  ['Kariakoo', 'Dar es Salaam', '11101'], ['Mbezi', 'Dar es Salaam', '14128'], ['Kaloleni', 'Arusha', '23104'],
  ['Mjini', 'Dodoma', '41101'], ['Nyamagana', 'Mwanza', '33101'], ['Shanga', 'Kilimanjaro', '25101'],
];
const BIRTH_FROM_MS = Date.UTC(1945, 0, 1);
const BIRTH_SPAN_DAYS = 60 * 365;
const EXPIRY_FROM_MS = Date.UTC(2027, 0, 1);
const EXPIRY_SPAN_DAYS = 10 * 365;
const DAY_MS = 86_400_000;

/** `draw(k)` is the number's k-th independent 32-bit draw; keys 20..31 are this module's. */
export function syntheticIdentity(draw: (k: number) => number): IdentityRecord {
  const [givenName, gender] = pick(GIVEN, draw(20));
  const familyName = pick(FAMILY, draw(21));
  const streetName = pick(STREETS, draw(22));
  const streetNumber = String(1 + (draw(23) % 200));
  const [locality, region, postalCode] = pick(PLACES, draw(24));
  const [cityOfBirth] = pick(PLACES, draw(25));
  return {
    idDocument: `NID${String(draw(26) % 1_000_000_000).padStart(9, '0')}`,
    idDocumentType: 'national_id_card',
    idDocumentExpiryDate: isoDate(EXPIRY_FROM_MS + (draw(27) % EXPIRY_SPAN_DAYS) * DAY_MS),
    name: `${givenName} ${familyName}`,
    givenName,
    familyName,
    address: `${streetName} Street ${streetNumber}`,
    streetName,
    streetNumber,
    postalCode,
    region,
    locality,
    country: 'TZ',
    birthdate: isoDate(BIRTH_FROM_MS + (draw(28) % BIRTH_SPAN_DAYS) * DAY_MS),
    email: `${ascii(givenName)}.${ascii(familyName)}@example.com`,
    gender,
    cityOfBirth,
    countryOfBirth: 'TZ',
    nationality: 'TZ',
  };
}

function pick<T>(list: readonly T[], n: number): T {
  return list[n % list.length];
}

function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

/** An e-mail local part from a name: lower case, diacritics and anything not a letter dropped. */
function ascii(s: string): string {
  return s.normalize('NFD').replace(/\p{M}/gu, '').replace('Ł', 'L').toLowerCase().replace(/[^a-z]/g, '');
}
