import { isUtf8 } from 'node:buffer';
import fc from 'fast-check';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { assertCamaraResponse } from '../support/camara-spec';
import { RawReply, buildRequest, headerSource, rawRequest } from '../support/raw-http';

/*
 * Hostile input on the CAMARA routes (bad input gets a CAMARA ErrorInfo, never a 500), in the style of
 * hostile-input.test.ts: whatever the body, tokens or headers, the answer is an ErrorInfo
 * (or the success body) valid against the official documents, with the status and code the
 * specs give that input, and never a 5xx. FC_SEED / FC_RUNS reproduce or widen a run.
 */

const SEED = Number(process.env.FC_SEED ?? 4242);
const RUNS = Number(process.env.FC_RUNS ?? 100);
const params = (base = 100) => ({ seed: SEED, numRuns: Math.max(1, Math.round((base * RUNS) / 100)), endOnFailure: true });

const CHECK = '/sim-swap/v2/check';
const RETRIEVE = '/sim-swap/v2/retrieve-date';
const TENURE = '/kyc-tenure/v0.2/check-tenure';
const PATHS = [CHECK, RETRIEVE, TENURE] as const;
type Path = (typeof PATHS)[number];
const BODY_LIMIT = 8192;

// ---------------------------------------------------------------------------------------
// The oracle: status and code the specs and CONTRACT §7 give a body, from the exact bytes.

const PHONE = /^\+[1-9][0-9]{4,14}$/;
/** Demo fixture subscribers that are not terminated (255712000004 is). */
const SUBSCRIBERS = new Set(Array.from({ length: 10 }, (_, i) => `+2557120000${String(i + 1).padStart(2, '0')}`).filter((p) => p !== '+255712000004'));

type Expected = [number, string];
const OK: Expected = [200, ''];
const INVALID: Expected = [400, 'INVALID_ARGUMENT'];

function isFullDate(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return mo >= 1 && mo <= 12 && d >= 1 && d <= new Date(Date.UTC(y, mo, 0)).getUTCDate();
}

function numberOutcome(phone: string): Expected {
  if (!phone.startsWith('+255')) return [422, 'SERVICE_NOT_APPLICABLE'];
  const nsn = phone.slice(4);
  if (nsn.length !== 9 || nsn.startsWith('0') || !SUBSCRIBERS.has(phone)) return [404, 'IDENTIFIER_NOT_FOUND'];
  return OK;
}

function expected(path: Path, body: Buffer, limit = BODY_LIMIT): Expected {
  if (body.length > limit || !isUtf8(body)) return INVALID;
  let v: unknown;
  try {
    const text = body.toString('utf8').replace(/^\uFEFF/, '');
    v = text.length === 0 ? {} : JSON.parse(text);
  } catch {
    return INVALID;
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return INVALID;
  const own = (k: string) => (Object.prototype.hasOwnProperty.call(v, k) ? (v as Record<string, unknown>)[k] : undefined);
  // CONTRACT §13's one body rule: a property the schema does not declare is refused before any value is judged.
  const declared = path === TENURE ? ['phoneNumber', 'tenureDate'] : path === CHECK ? ['phoneNumber', 'maxAge'] : ['phoneNumber'];
  if (Object.keys(v).some((k) => !declared.includes(k))) return INVALID;
  const phone = own('phoneNumber');
  if (path === TENURE) {
    const date = own('tenureDate');
    if (!isFullDate(date)) return INVALID;
    if (phone !== undefined && (typeof phone !== 'string' || !PHONE.test(phone))) return INVALID;
    if ((date as string) > new Date(Date.now() + 14 * 3_600_000).toISOString().slice(0, 10)) return [400, 'OUT_OF_RANGE'];
  } else {
    if (phone !== undefined && (typeof phone !== 'string' || !PHONE.test(phone))) return INVALID;
    if (path === CHECK) {
      const maxAge = own('maxAge');
      if (maxAge !== undefined) {
        if (typeof maxAge !== 'number' || !Number.isInteger(maxAge)) return INVALID;
        if (maxAge < 1 || maxAge > 2400) return [400, 'OUT_OF_RANGE'];
      }
    }
  }
  if (phone === undefined) return [422, 'MISSING_IDENTIFIER'];
  return numberOutcome(phone);
}

// ---------------------------------------------------------------------------------------
// Generators: JSON text, so duplicate keys, __proto__ and odd numbers reach the server as generated.

const nonStringArb = fc.oneof(fc.integer(), fc.double(), fc.boolean(), fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }));
const phoneArb = fc.oneof(
  { arbitrary: fc.constantFrom(...SUBSCRIBERS, '+255712000004'), weight: 3 },
  { arbitrary: fc.integer({ min: 100_000_000, max: 999_999_999 }).map((n) => `+255${n}`), weight: 2 },
  { arbitrary: fc.constantFrom('+254712000001', '+14155550100', '+4915112345678', '+2557120000', '+25571200000123', '+2550712000001'), weight: 1 },
  { arbitrary: fc.oneof(fc.string({ unit: 'binary', maxLength: 20 }), fc.constantFrom('', '+', '255712000001', '+255 712000001', '+255712000001\n', '\u202e+255712000001', '+２５５712000001')), weight: 1 },
  { arbitrary: nonStringArb, weight: 1 },
).map((v) => JSON.stringify(v));
const maxAgeArb = fc.oneof(fc.integer({ min: 1, max: 2400 }).map(String), fc.integer().map(String),
  fc.constantFrom('0', '2401', '1.5', '"24"', 'true', 'null', '1e400', '24.0', '1e3', '[24]', '{}', '-0', '99999999999999999999'));
const dateArb = fc.oneof(
  { arbitrary: fc.date({ min: new Date('1990-01-01'), max: new Date(Date.now() - 2 * 86_400_000), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)), weight: 3 },
  { arbitrary: fc.date({ min: new Date(Date.now() + 2 * 86_400_000), max: new Date('2999-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)), weight: 1 },
  { arbitrary: fc.constantFrom('2023-02-29', '2024-02-29', '2023-13-01', '2023-00-10', '2023-7-3', '2023/07/03', '2023-07-03T00:00:00Z', '', '20230703'), weight: 1 },
  { arbitrary: nonStringArb, weight: 1 },
).map((v) => (typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v)));
const extraArb = fc.tuple(fc.oneof(fc.constantFrom('__proto__', 'constructor', 'prototype', 'swapped', 'status', 'code'), fc.string({ maxLength: 8 })),
  fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.stringify(v)));

interface Fields { phone?: string; maxAge?: string; date?: string; extras: [string, string][]; decoys: [string, string][] }
const fieldsArb: fc.Arbitrary<Fields> = fc.record({
  phone: fc.option(phoneArb, { nil: undefined }),
  maxAge: fc.option(maxAgeArb, { nil: undefined }),
  date: fc.option(dateArb, { nil: undefined }),
  extras: fc.array(extraArb, { maxLength: 3 }),
  decoys: fc.array(fc.tuple(fc.constantFrom('phoneNumber', 'maxAge', 'tenureDate'), fc.oneof(phoneArb, maxAgeArb, dateArb)), { maxLength: 2 }),
}, { requiredKeys: ['extras', 'decoys'] });

function render(path: Path, f: Fields): string {
  const pairs: [string, string][] = [...f.decoys];
  if (f.phone !== undefined) pairs.push(['phoneNumber', f.phone]);
  if (f.maxAge !== undefined && path === CHECK) pairs.push(['maxAge', f.maxAge]);
  if (f.date !== undefined && path === TENURE) pairs.push(['tenureDate', f.date]);
  pairs.push(...f.extras);
  return `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
}

// ---------------------------------------------------------------------------------------

describe('hostile input on the CAMARA routes', () => {
  let c: CamaraHarness;
  beforeAll(async () => {
    c = await startCamaraHarness();
  });
  afterAll(() => c?.close());

  const raw = (path: Path, body: Buffer | string, headers: [string, string][] = [['Content-Type', 'application/json']], token = c.token) =>
    rawRequest(c.h.server.port, buildRequest({ target: path, headers: [['Authorization', `Bearer ${token}`], ...headers], body }));

  /** The reply conforms to the official documents, is never a 5xx, and (when given) has the oracle's status and code. */
  function expectAnswer(path: Path, r: RawReply, want?: Expected): void {
    if (r.status === undefined) throw new Error('no answer');
    assertCamaraResponse('post', path, r.status, headerSource(r), r.body, r.text);
    expect(r.status).toBeLessThan(500);
    if (want) expect([r.status, r.status === 200 ? '' : (r.body as { code: string }).code]).toEqual(want);
  }

  describe.each(PATHS)('%s', (path) => {
    it('when field values are random, of wrong types, duplicate or prototype keys, then they get the status and code the specs give them', async () => {
      await fc.assert(fc.asyncProperty(fieldsArb, async (f) => {
        const text = render(path, f);
        expectAnswer(path, await raw(path, text), expected(path, Buffer.from(text)));
      }), params(150));
    });

    it("when the body is a random JSON document, random text or random bytes, then 400 INVALID_ARGUMENT (or the oracle's answer)", async () => {
      const bodies = fc.oneof(
        fc.jsonValue({ maxDepth: 5 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')),
        fc.string({ unit: 'binary', maxLength: 200 }).map((s) => Buffer.from(s)),
        fc.uint8Array({ maxLength: 200 }).map((b) => Buffer.from(b)),
      );
      await fc.assert(fc.asyncProperty(bodies, async (body) => {
        expectAnswer(path, await raw(path, body), expected(path, body));
      }), params());
    });

    it('when the Authorization header is hostile, then 401 UNAUTHENTICATED before the body is read', async () => {
      const header = fc.oneof(
        fc.string({ unit: 'grapheme-ascii', maxLength: 200 }).map((s) => `Bearer ${s}`),
        fc.constantFrom('Bearer', 'Bearer  ', 'Basic ZGVtbzpkZW1v', 'bearer eyJhbGciOiJub25lIn0.e30.', 'Bearer a.b.c', 'Token abc', 'Bearer x'.repeat(500)),
        fc.tuple(fc.nat(), fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 4 })).map(([at, junk]) => {
          const t = c.token;
          const i = at % t.length;
          return `Bearer ${t.slice(0, i)}${junk}${t.slice(i + 1)}`;
        }).filter((h) => h !== `Bearer ${c.token}`),
      ).filter((h) => /^[\x20-\x7e]*$/.test(h));
      await fc.assert(fc.asyncProperty(header, async (authorization) => {
        const r = await rawRequest(c.h.server.port, buildRequest({ target: path, headers: [['Authorization', authorization], ['Content-Type', 'application/json']], body: '{"phoneNumber":"+255712000001"}' }));
        if (r.status === 400 && r.body === undefined) return; // Node refused the header line itself
        expectAnswer(path, r, [401, 'UNAUTHENTICATED']);
      }), params(60));
    });

    it('when the x-correlator value is hostile, then 400 INVALID_ARGUMENT and it is never echoed', async () => {
      await fc.assert(fc.asyncProperty(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 300 }).filter((s) => !/^[a-zA-Z0-9-_:;./<>{}]{0,256}$/.test(s) && s.trim() === s), async (correlator) => {
        const r = await raw(path, path === TENURE ? '{"phoneNumber":"+255712000001","tenureDate":"2020-01-01"}' : '{"phoneNumber":"+255712000001"}',
          [['Content-Type', 'application/json'], ['x-correlator', correlator]]);
        expectAnswer(path, r, INVALID);
        expect(r.headers.get('x-correlator')).not.toBe(correlator);
      }), params(40));
    });

    it('when a body is far over the limit, then 400 INVALID_ARGUMENT or a closed connection, never a 5xx', async () => {
      const r = await raw(path, `{"phoneNumber":"${'1'.repeat(200_000)}"}`);
      if (r.body !== undefined) expectAnswer(path, r, INVALID);
      else expect(r.closed).toBe(true);
    });
  });
});
