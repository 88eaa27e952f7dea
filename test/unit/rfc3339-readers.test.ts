import { decodeRecord, encodeRecord } from '../../src/audit/adapters/audit-record-codec';
import { AuditRecord } from '../../src/audit/ports/audit-trail';
import { UsageError } from '../../src/cli/args';
import { parseInstant } from '../../src/cli/audit-command';
import { instantOf } from '../../src/kernel/rfc3339';
import { parseSubscriber } from '../../src/simulator/subscriber';
import { createMsisdnNormaliser } from '../../src/kernel/msisdn';
import { parseSwapEventBody } from '../../src/verification/verification-input';

/* Every place that reads an RFC 3339 time goes through the one parser and refuses what it refuses. */

const LEAP_SECOND = '2026-12-31T23:59:60Z';

describe('instantOf (a stored, already checked time)', () => {
  test('when the text is a real date-time, then it is its instant', () => {
    expect(instantOf('2026-01-01T03:00:00+03:00')).toBe(Date.UTC(2026, 0, 1));
  });

  test('when the text is not one, then it throws rather than return NaN', () => {
    expect(() => instantOf(LEAP_SECOND)).toThrow(RangeError);
  });
});

describe('the audit command --since/--until', () => {
  test('when given a full-date, then it is midnight UTC of that day, year below 100 too', () => {
    expect(parseInstant('since', '2026-11-01', 0)).toBe(Date.UTC(2026, 10, 1));
    expect(new Date(parseInstant('since', '0050-01-01', 0)).getUTCFullYear()).toBe(50);
  });

  test('when given a date-time with a zone, then it is that instant', () => {
    expect(parseInstant('until', '2026-11-01T12:00:00+03:00', 0)).toBe(Date.UTC(2026, 10, 1, 9));
  });

  test.each([LEAP_SECOND, '2026-02-30', '2026-11-01T12:00:00', '2026-11-01T12:00', 'yesterday', '2026-11-01junk'])(
    'when given %s, then it is a usage error naming the option', (value) => {
      expect(() => parseInstant('since', value, 0)).toThrow(new UsageError('--since must be an ISO 8601 date or date-time, e.g. 2026-11-01 or 2026-11-01T12:00:00+03:00'));
    });

  test('when not given, then the fallback', () => {
    expect(parseInstant('until', undefined, 42)).toBe(42);
  });
});

describe('the audit file codec', () => {
  const record: AuditRecord = {
    id: '0190a6f2-0000-7000-8000-000000000000', timeMs: Date.UTC(2026, 10, 1, 12, 0, 0, 123), partner: 'acme', interface: 'legacy',
    operation: 'kyc', msisdn: '255712000001', code: '00000', httpStatus: 200, txnId: 't1', correlator: 'c1', purpose: null, replayed: false,
  };

  test('when a line was written by encodeRecord, then it decodes to the same record', () => {
    expect(decodeRecord(encodeRecord(record))).toEqual(record);
  });

  test('when a line carries a time no parser can represent, then it is not a record (never a NaN time)', () => {
    const line = JSON.parse(encodeRecord(record)) as Record<string, unknown>;
    for (const time of [LEAP_SECOND, '2026-02-30T00:00:00Z', 'November 1, 2026', 1_700_000_000_000]) {
      expect(decodeRecord(JSON.stringify({ ...line, time }))).toBeNull();
    }
  });
});

describe('the simulator\'s subscriber times', () => {
  const subscriber = { msisdn: '255712000001', status: 'active', paymentType: 'prepaid', iccid: '8925500000000000001' };

  test('when lastSimSwapAt is a leap second, then the subscriber is refused, as the service would refuse it', () => {
    expect(() => parseSubscriber({ ...subscriber, lastSimSwapAt: LEAP_SECOND })).toThrow(/lastSimSwapAt must be an RFC 3339 date-time/);
  });

  test('when the device changed before it was first seen, then the subscriber is refused, across zones', () => {
    expect(() => parseSubscriber({ ...subscriber, deviceFirstSeenAt: '2026-01-01T00:00:00Z', deviceChangedAt: '2026-01-01T02:00:00+03:00' }))
      .toThrow(/deviceChangedAt is before deviceFirstSeenAt/);
    expect(parseSubscriber({ ...subscriber, deviceFirstSeenAt: '2026-01-01T00:00:00Z', deviceChangedAt: '2026-01-01T04:00:00+03:00' }).deviceChangedAt)
      .toBe('2026-01-01T04:00:00+03:00');
  });
});

describe('the swap event body', () => {
  const normalise = createMsisdnNormaliser({ countryCode: '255', nsnLength: 9 });

  test('when the body names a number and an event id, then both are read', () => {
    expect(parseSwapEventBody({ msisdn: '0712000001', eventId: 'e-1' }, normalise)).toEqual({ msisdn: '255712000001', swapId: 'e-1' });
    expect(parseSwapEventBody({ msisdn: '0712000001' }, normalise)).toEqual({ msisdn: '255712000001' });
  });

  test('when the number and the event id are both wrong, then the number is reported first', () => {
    expect(() => parseSwapEventBody({ msisdn: 'x', eventId: '' }, normalise)).toThrow('msisdn is malformed');
    expect(() => parseSwapEventBody({ msisdn: '0712000001', eventId: 'a b' }, normalise)).toThrow('eventId must be 1 to 128 characters of A-Z a-z 0-9 . _ : -');
  });
});
