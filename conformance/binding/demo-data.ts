/*
 * The demo data the binding (demo-binding.ts) maps conditions to: numbers of
 * fixtures/demo-subscribers.json by the facts they have, and the identity records KYC Match
 * compares with, and a valid request body per operation. A deployment that runs the kit loads
 * that fixture into a test partition.
 */

import { readFileSync } from 'node:fs';
import type { ConformanceWorld as W } from '../support/world';

export const DAY = 86_400_000;

export const propertyName = (jsonPath: string) => jsonPath.replace(/^\$\.?/, '');

/** Demo numbers by the facts they have (fixtures/demo-subscribers.json); `--data FILE` may replace them. */
export const NUMBERS = {
  /** Active prepaid; never swapped; activated 1460 days before the simulator loaded. */
  neverSwapped: '+255712000001',
  /** SIM swapped 3 h before load. */
  swappedRecently: '+255712000006',
  /** SIM swapped 90 days before load. */
  swappedLongAgo: '+255712000007',
  /** Activated 2 days before load: no tenure before then. */
  newSubscriber: '+255712000010',
  /** Full identity record; device changed 2 h before load; no call forwarding. */
  identity: '+255712000011',
  /** Unconditional forwarding; device changed 400 days before load; activated 1500 days before. */
  forwarding: '+255712000012',
  /** Japanese identity record (kana); conditional forwardings; device never changed, first seen 300 days before load. */
  kana: '+255712000013',
  /** No device ever seen on the network; no forwarding. */
  noDevice: '+255712000014',
  /** Activated 20 days before load: the number was someone else's before. */
  recycled: '+255712000015',
  /** Well formed, in the numbering plan, no subscriber. */
  unknown: '+255712999999',
  /** Another country's number: the service is not applicable. */
  foreign: '+14155550100',
};

export type NumberRole = keyof typeof NUMBERS;

/** The identity records of the two numbers with one (the `identity` and `kana` roles), as the fixture holds them. */
export const RECORDS: Record<'identity' | 'kana', Record<string, string>> = {
  identity: {
    idDocument: '19870412-11111-00011-27', idDocumentType: 'national_id_card', idDocumentExpiryDate: '2031-04-11',
    name: 'José María Núñez', givenName: 'José', middleNames: 'María', familyName: 'Núñez', familyNameAtBirth: 'Núñez Añorga',
    address: 'Samora 12, 4B', streetName: 'Samora', streetNumber: '12', houseNumberExtension: '4B', postalCode: '11101',
    region: 'Dar es Salaam', locality: 'Kariakoo', country: 'TZ', birthdate: '1987-04-12', email: 'jose.nunez@example.com',
    gender: 'MALE', cityOfBirth: 'Sevilla', countryOfBirth: 'ES', nationality: 'ES',
  },
  kana: { idDocument: '19790123-13131-00013-81', name: '佐藤 由紀', givenName: '由紀', familyName: '佐藤', nameKanaHankaku: 'ｻﾄｳ ﾕｷ', nameKanaZenkaku: 'サトウ ユキ' },
};

/** Days before the data was loaded: 001's SIM activation, 013's first device (the fixture's `now-…d`). */
export const DAYS_AGO = { simActivation: 1460, deviceFirstSeen: 300 };

/**
 * Another deployment's test data (`--data FILE`): `{"numbers": {role: "+…"}, "records":
 * {"identity" | "kana": {attribute: value}}, "daysAgo": {"simActivation" | "deviceFirstSeen": n}}`,
 * each part replacing the demo's. An unknown role or key is refused: a typo would test the demo's.
 */
export function useDataFile(file: string): void {
  const data = JSON.parse(readFileSync(file, 'utf8')) as { numbers?: Record<string, string>; records?: Record<string, Record<string, string>>; daysAgo?: Record<string, number> };
  const check = (what: string, given: object | undefined, known: object) => {
    const bad = Object.keys(given ?? {}).filter((k) => !Object.hasOwn(known, k));
    if (bad.length > 0) throw new Error(`${file}: unknown ${what} ${bad.join(', ')} (known: ${Object.keys(known).join(', ')})`);
  };
  check('number role', data.numbers, NUMBERS);
  check('record', data.records, RECORDS);
  check('daysAgo key', data.daysAgo, DAYS_AGO);
  Object.assign(NUMBERS, data.numbers);
  Object.assign(RECORDS, data.records);
  Object.assign(DAYS_AGO, data.daysAgo);
}

/** Values of the right format that match nothing in either record. */
export const MISMATCH: Record<string, string> = {
  idDocument: '20010101-99999-99999-99', idDocumentType: 'passport', idDocumentExpiryDate: '2029-01-01', name: 'Wanjiru Otieno Kamau',
  givenName: 'Wanjiru', familyName: 'Kamau', nameKanaHankaku: 'ﾀﾅｶ ﾀﾛｳ', nameKanaZenkaku: 'タナカ タロウ', middleNames: 'Otieno',
  familyNameAtBirth: 'Odhiambo', address: 'Kenyatta Avenue 77', streetName: 'Kenyatta Avenue', streetNumber: '77', houseNumberExtension: 'Z9',
  postalCode: '99999', region: 'Mwanza', locality: 'Ilemela', country: 'KE', birthdate: '1970-01-31', email: 'someone.else@example.org',
  gender: 'FEMALE', cityOfBirth: 'Nairobi', countryOfBirth: 'KE', nationality: 'KE',
};

/** A valid body for each operation, about the API's usual demo number. */
export function defaultBody(w: W): unknown {
  switch (w.op.operationId) {
    case 'checkSimSwap': return { phoneNumber: NUMBERS.neverSwapped, maxAge: 240 };
    case 'retrieveSimSwapDate': return { phoneNumber: NUMBERS.neverSwapped };
    case 'checkTenure': return { phoneNumber: NUMBERS.neverSwapped, tenureDate: isoDate(Date.now() - 365 * DAY) };
    case 'KYC_Match': return { phoneNumber: NUMBERS.identity, givenName: RECORDS.identity.givenName };
    case 'checkDeviceSwap': return { phoneNumber: NUMBERS.forwarding, maxAge: 240 };
    case 'retrieveDeviceSwapDate': return { phoneNumber: NUMBERS.forwarding };
    case 'retrieveCallForwarding':
    case 'retrieveUnconditionalCallForwarding': return { phoneNumber: NUMBERS.forwarding };
    case 'verifyAge': return { phoneNumber: NUMBERS.identity, ageThreshold: 18 };
    case 'checkNumberRecycling': return { phoneNumber: NUMBERS.forwarding, specifiedDate: isoDate(Date.now() - 365 * DAY) };
    case 'createSimSwapSubscription': return {
      protocol: 'HTTP', sink: w.parameters.sinkUrl, types: ['org.camaraproject.sim-swap-subscriptions.v0.swapped'],
      config: { subscriptionDetail: { phoneNumber: NUMBERS.neverSwapped } },
    };
    default: return {};
  }
}

/** A value the property's schema refuses. */
export function invalidValue(jsonPath: string): unknown {
  return propertyName(jsonPath) === 'phoneNumber' ? '0712 000 001' : 'not-a-valid-value';
}

export function isoDate(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}
