import { OutOfRangeError } from '../../src/camara/camara-errors';
import { parseCheckBody, parseRetrieveDateBody, parseTenureBody } from '../../src/camara/camara-input';
import { BadRequestError } from '../../src/errors/domain-errors';
import { parseSubscriptionRequest } from '../../src/subscriptions/domain/subscription-input';
import { InvalidCredentialError, InvalidProtocolError, InvalidTokenTypeError } from '../../src/subscriptions/domain/subscription-errors';
import { SWAPPED } from '../../src/subscriptions/domain/subscription';
import { createMsisdnNormaliser } from '../../src/kernel/msisdn';
import { parseRestBody, validateMaxAge, validateTxnId } from '../../src/verification/verification-input';

/* The zod-backed body parsers: the first problem in field order decides the message and error class. */

const normalise = createMsisdnNormaliser({ countryCode: '255', nsnLength: 9 });
const NOW = Date.UTC(2026, 0, 1);

function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected a throw');
}

describe('the legacy REST body', () => {
  test('when txn_id and msisdn are both wrong, then txn_id is reported first', () => {
    const e = thrown(() => parseRestBody({ txn_id: 7, msisdn: 'nope' }, 'kyc', normalise));
    expect(e).toBeInstanceOf(BadRequestError);
    expect(e.message).toBe('txn_id must be a string');
  });

  test('when msisdn is malformed and max_age out of range, then msisdn is reported first', () => {
    const e = thrown(() => parseRestBody({ txn_id: 'a', msisdn: '12', max_age: 0 }, 'sim_swap', normalise));
    expect(e.message).toBe('msisdn is malformed');
  });

  test('when txn_id is null, then it is missing', () => {
    expect(thrown(() => parseRestBody({ txn_id: null, msisdn: '255712345678' }, 'kyc', normalise)).message).toBe('txn_id is required');
  });

  test('when msisdn is null, then it must be a string (absent is what "required" means)', () => {
    expect(thrown(() => parseRestBody({ txn_id: 'a', msisdn: null }, 'kyc', normalise)).message).toBe('msisdn must be a string');
    expect(thrown(() => parseRestBody({ txn_id: 'a' }, 'kyc', normalise)).message).toBe('msisdn is required');
  });

  test('when a kyc body carries a bad max_age, then it is ignored, as any unknown field is', () => {
    expect(parseRestBody({ txn_id: 'a', msisdn: '0712345678', max_age: 'x', extra: 1 }, 'kyc', normalise))
      .toEqual({ operation: 'kyc', msisdnRaw: '0712345678', msisdn: '255712345678', txnId: 'a' });
  });

  test('when max_age is null, then the default applies (no maxAgeHours)', () => {
    expect(parseRestBody({ txn_id: 'a', msisdn: '0712345678', max_age: null }, 'sim_swap', normalise)).not.toHaveProperty('maxAgeHours');
    expect(parseRestBody({ txn_id: 'a', msisdn: '0712345678', max_age: 24 }, 'sim_swap', normalise).maxAgeHours).toBe(24);
  });

  test('when fields are only inherited, then they are not read', () => {
    const body = Object.create({ txn_id: 'a', msisdn: '0712345678' }) as Record<string, unknown>;
    expect(thrown(() => parseRestBody(body, 'kyc', normalise)).message).toBe('txn_id is required');
  });

  test.each([[null], [[]], ['x'], [undefined]])('when the body is %p, then it must be a JSON object', (body) => {
    expect(thrown(() => parseRestBody(body, 'kyc', normalise)).message).toBe('body must be a JSON object');
  });

  test('when the GraphQL arguments are checked alone, then they give the REST messages', () => {
    expect(validateTxnId(undefined, false)).toBeUndefined();
    expect(thrown(() => validateTxnId('a b', false)).message).toBe('txn_id must be 1-25 characters of A-Z a-z 0-9 . _ : -');
    expect(thrown(() => validateMaxAge(1.5)).message).toBe('max_age must be an integer from 1 to 2400');
  });
});

describe('the CAMARA bodies', () => {
  test('when maxAge is not an integer, then INVALID_ARGUMENT; when out of 1-2400, then OUT_OF_RANGE', () => {
    expect(thrown(() => parseCheckBody({ maxAge: '1' }))).not.toBeInstanceOf(OutOfRangeError);
    expect(thrown(() => parseCheckBody({ maxAge: 0.5 })).message).toBe('maxAge must be an integer number of hours');
    expect(thrown(() => parseCheckBody({ maxAge: 1e20 }))).toBeInstanceOf(OutOfRangeError);
    const e = thrown(() => parseCheckBody({ maxAge: 2401 }));
    expect(e).toBeInstanceOf(OutOfRangeError);
    expect(e.message).toBe('maxAge must be from 1 to 2400 hours');
  });

  test('when phoneNumber and maxAge are both wrong, then phoneNumber is reported first', () => {
    expect(thrown(() => parseCheckBody({ phoneNumber: 'x', maxAge: 0 }))).toBeInstanceOf(BadRequestError);
  });

  test('when tenureDate and phoneNumber are both wrong, then tenureDate is reported first', () => {
    expect(thrown(() => parseTenureBody({ phoneNumber: 'x', tenureDate: '2023-02-29' })).message).toBe('tenureDate must be a date in the form YYYY-MM-DD');
    expect(thrown(() => parseTenureBody({ phoneNumber: 'x' })).message).toBe('tenureDate is required');
  });

  test('when a body is valid, then only what was sent is returned', () => {
    expect(parseRetrieveDateBody({})).toEqual({});
    expect(parseCheckBody({ phoneNumber: '+255712345678' })).toEqual({ phoneNumber: '+255712345678' });
    expect(parseTenureBody({ tenureDate: '2024-02-29' })).toEqual({ tenureDate: '2024-02-29' });
  });

  test('when a body has a property its schema does not declare, then it is refused, naming it, before any value is judged', () => {
    expect(thrown(() => parseCheckBody({ phoneNumber: '+255712345678', other: true })).message).toMatch(/^unknown property "other"/);
    expect(thrown(() => parseTenureBody({ tenureDate: 'not a date', maxAge: 1 })).message).toMatch(/^unknown property "maxAge"/);
    expect(thrown(() => parseRetrieveDateBody(JSON.parse('{"__proto__":{"phoneNumber":"+255712345678"}}'))).message).toMatch(/^unknown property "__proto__"/);
  });

  test('when an undeclared name holds a right-to-left override, a newline or is very long, then the message shows them escaped and cut', () => {
    const message = thrown(() => parseCheckBody({ ['a\u202eb\nc']: 1 })).message;
    expect(message).toBe('unknown property "a\\u202eb\\u000ac"; the schema does not declare it');
    expect(thrown(() => parseCheckBody({ ['x'.repeat(500)]: 1 })).message).toBe(`unknown property "${'x'.repeat(80)}"; the schema does not declare it`);
  });

  test('when phoneNumber is null, then it is refused (the schema allows no null)', () => {
    expect(thrown(() => parseRetrieveDateBody({ phoneNumber: null })).message).toMatch(/^phoneNumber must be an E\.164 number/);
  });
});

describe('the subscription request', () => {
  const valid = () => ({ protocol: 'HTTP', sink: 'https://sink.example/cb', types: [SWAPPED], config: { subscriptionDetail: {} } });

  test('when protocol is absent, then it is required; when not HTTP, then INVALID_PROTOCOL', () => {
    const absent = thrown(() => parseSubscriptionRequest({ ...valid(), protocol: undefined }, NOW));
    expect(absent).not.toBeInstanceOf(InvalidProtocolError);
    expect(absent.message).toBe('protocol is required');
    expect(thrown(() => parseSubscriptionRequest({ ...valid(), protocol: 'MQTT' }, NOW))).toBeInstanceOf(InvalidProtocolError);
  });

  test('when the protocol and sink are both wrong, then the protocol is reported first', () => {
    expect(thrown(() => parseSubscriptionRequest({ ...valid(), protocol: 'MQTT', sink: '' }, NOW))).toBeInstanceOf(InvalidProtocolError);
  });

  test('when the sink is wrong in each way, then each way has its message', () => {
    const sinkError = (sink: unknown) => thrown(() => parseSubscriptionRequest({ ...valid(), sink }, NOW)).message;
    expect(sinkError('')).toBe('sink is required and must be a URL');
    expect(sinkError('not a url')).toBe('sink must be an absolute URL');
    expect(sinkError('ftp://sink.example/')).toBe('sink must be an https URL');
    expect(sinkError('https://u:p@sink.example/')).toBe('sink must not carry credentials; use sinkCredential');
  });

  test('when the expiry is in the past and maxEvents wrong, then the expiry is reported first', () => {
    const config = { subscriptionDetail: {}, subscriptionExpireTime: '2025-01-01T00:00:00Z', subscriptionMaxEvents: 0 };
    expect(thrown(() => parseSubscriptionRequest({ ...valid(), config }, NOW)).message).toBe('config.subscriptionExpireTime must be in the future');
  });

  test('when the expiry names second 60, then it is not a real date-time', () => {
    const config = { subscriptionDetail: {}, subscriptionExpireTime: '2099-12-31T23:59:60Z' };
    expect(thrown(() => parseSubscriptionRequest({ ...valid(), config }, NOW)).message)
      .toBe('config.subscriptionExpireTime must be a real RFC 3339 date-time with a time zone');
  });

  test('when the credential type is missing, then INVALID_ARGUMENT; when unknown, then INVALID_CREDENTIAL', () => {
    const credentialError = (sinkCredential: unknown) => thrown(() => parseSubscriptionRequest({ ...valid(), sinkCredential }, NOW));
    expect(credentialError({})).toBeInstanceOf(BadRequestError);
    expect(credentialError({}).message).toBe('sinkCredential.credentialType is required');
    expect(credentialError(null).message).toBe('sinkCredential must be an object');
    expect(credentialError({ credentialType: 'REFRESHTOKEN' })).toBeInstanceOf(InvalidCredentialError);
    expect(credentialError({ credentialType: 'ACCESSTOKEN', accessTokenType: 'mac' })).toBeInstanceOf(InvalidTokenTypeError);
  });

  test('when a PLAIN secret is empty and the identifier has a colon, then the empty secret is reported first', () => {
    const e = thrown(() => parseSubscriptionRequest({ ...valid(), sinkCredential: { credentialType: 'PLAIN', identifier: 'a:b', secret: '' } }, NOW));
    expect(e.message).toBe('sinkCredential.secret must be a non-empty string');
  });

  test('when the optional parts are absent, then the request holds only sink and types', () => {
    expect(parseSubscriptionRequest(valid(), NOW)).toEqual({ sink: 'https://sink.example/cb', types: [SWAPPED] });
  });

  test('when the same body is parsed at two times, then each is judged against its own now', () => {
    const config = { subscriptionDetail: {}, subscriptionExpireTime: '2026-01-01T00:01:00Z' };
    expect(parseSubscriptionRequest({ ...valid(), config }, NOW).expiresAtMs).toBe(NOW + 60_000);
    expect(() => parseSubscriptionRequest({ ...valid(), config }, NOW + 60_000)).toThrow('config.subscriptionExpireTime must be in the future');
  });

  test('when the body is valid, then the request holds what was sent', () => {
    const body = {
      ...valid(), config: { subscriptionDetail: { phoneNumber: '+255712345678' }, subscriptionExpireTime: '2026-02-01T00:00:00+03:00', subscriptionMaxEvents: 2 },
      sinkCredential: { credentialType: 'ACCESSTOKEN', accessTokenType: 'bearer', accessToken: 'abc=', accessTokenExpiresUtc: '2026-01-02T00:00:00Z' },
    };
    expect(parseSubscriptionRequest(body, NOW)).toEqual({
      sink: 'https://sink.example/cb', types: [SWAPPED], phoneNumber: '+255712345678',
      subscriptionExpireTime: '2026-02-01T00:00:00+03:00', expiresAtMs: Date.UTC(2026, 0, 31, 21), maxEvents: 2,
      credential: { credentialType: 'ACCESSTOKEN', accessTokenType: 'bearer', accessToken: 'abc=', accessTokenExpiresUtc: '2026-01-02T00:00:00Z' },
    });
  });
});
