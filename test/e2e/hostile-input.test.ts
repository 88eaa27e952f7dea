import { isUtf8 } from 'node:buffer';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { graphqlBody } from '../support/graphql-client';
import { Harness, Reply, startHarness, txnId } from '../support/harness';
import { CapturedLogs, captureLogs } from '../support/log-capture';
import { partnerApiSpec } from '../support/openapi-validator';
import { OutcomeTally } from '../support/outcome-tally';
import { RawReply, buildRequest, headerSource, rawRequest, trickle } from '../support/raw-http';
import { DEMO, signedQuery } from '../support/signing';
import { until } from '../support/until';

/*
 * Hostile input. Whatever a caller sends, it gets a well-formed answer in
 * the operation's shape (validated against docs/openapi.yaml), with the status the contract
 * gives that input, and never 500/9999; transport abuse (slow or oversized requests, header
 * floods) gets a bare 4xx and a closed connection at worst. Properties run with a fixed seed:
 * FC_SEED (default 4242) and FC_RUNS (default 100) reproduce or widen a run. With
 * RELIABILITY_REPORT_DIR set, the outcome counts are written there (docs/reliability.md).
 */

type Op = 'kyc' | 'sim_swap';
const OPS: Op[] = ['kyc', 'sim_swap'];
const SEED = Number(process.env.FC_SEED ?? 4242);
const RUNS = Number(process.env.FC_RUNS ?? 100);
/** Runs for one property: its default count scaled by FC_RUNS / 100. */
const params = (base = 100) => ({ seed: SEED, numRuns: Math.max(1, Math.round((base * RUNS) / 100)), endOnFailure: true });

const BODY_LIMIT = 8192;
const BIG_BODY_LIMIT = 1_048_576;
const REQUEST_TIMEOUT_MS = 2000;
const HEADERS_TIMEOUT_MS = 1000;
/** Node's default --max-http-header-size. */
const MAX_HEADER_BYTES = 16_384;

// Failed signatures are the point of some classes here; the throttle has its own suite.
const NO_THROTTLE = { AUTH_FAIL_LIMIT: '10000', AUTH_FAIL_ADDRESS_LIMIT: '10000' };
const TIMEOUTS = { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS) };

const tally = new OutcomeTally('hostile-input');
const pathOf = (op: Op) => `/eai/verify_customer/query/${op}`;

// ---------------------------------------------------------------------------------------
// The oracle: what CONTRACT §1.3/§1.4 says a body deserves, computed from the exact bytes sent.

const MSISDN_FORMS = /^(?:(?:\+|00)?255[1-9][0-9]{8}|0?[1-9][0-9]{8})$/;
const TXN = /^[A-Za-z0-9._:-]{1,25}$/;
/** NSNs of the demo fixture's subscribers (fixtures/demo-subscribers.json). */
const SUBSCRIBER_NSNS = Array.from({ length: 10 }, (_, i) => `71200000${i + 1}`);

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function expectedStatus(op: Op, body: Buffer, limit = BODY_LIMIT): number {
  if (body.length > limit) return 413;
  if (!isUtf8(body)) return 400;
  let v: unknown;
  try {
    v = JSON.parse(body.toString('utf8').replace(/^\uFEFF/, '')); // the body reader drops a BOM
  } catch {
    return 400;
  }
  if (!isPlainObject(v)) return 400;
  const own = (k: string) => (Object.prototype.hasOwnProperty.call(v, k) ? v[k] : undefined);
  const txn = own('txn_id');
  const msisdn = own('msisdn');
  if (typeof txn !== 'string' || !TXN.test(txn)) return 400;
  if (typeof msisdn !== 'string' || !MSISDN_FORMS.test(msisdn)) return 400;
  if (op === 'kyc') return 200;
  const maxAge = own('max_age');
  if (maxAge !== undefined && maxAge !== null && !(typeof maxAge === 'number' && Number.isInteger(maxAge) && maxAge >= 1 && maxAge <= 2400)) return 400;
  return SUBSCRIBER_NSNS.includes(msisdn.slice(-9)) ? 200 : 404;
}

const CODE_OF: Record<number, string> = { 200: '00000' };
const codeOf = (status: number) => CODE_OF[status] ?? (status >= 500 ? '9999' : '11111');

// ---------------------------------------------------------------------------------------
// Generators. Values are rendered as JSON text so that duplicate keys, __proto__ and numbers
// JSON.stringify cannot write (1e400, 24.0) reach the server exactly as generated.

/** Stands for a fresh valid txn_id, drawn when the request is sent, so no run collides with another. */
const FRESH = '"<fresh>"';
const withFreshTxnIds = (text: string) => text.replace(/"<fresh>"/g, () => JSON.stringify(txnId('fc')));

const nsnArb = fc.oneof(fc.constantFrom(...SUBSCRIBER_NSNS), fc.integer({ min: 100_000_000, max: 999_999_999 }).map(String));
const validMsisdnArb = nsnArb.chain((nsn) => fc.constantFrom(`255${nsn}`, `+255${nsn}`, `00255${nsn}`, `0${nsn}`, nsn));
const NEAR_DIGITS = [...'0123456789+ -()\n\t', '\u0660', '\u0667', '\u06f1', '\uff10', '\uff17', '\u0967', '\u200b', '\u202e', '\u00a0', '\ufeff'];

/** Any JSON value that is not a string: every field's wrong types. */
const nonStringArb = fc.oneof(
  fc.integer(), fc.double(), fc.boolean(), fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 3 }),
);

const hostileMsisdnArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 25 }),
  fc.string({ unit: fc.constantFrom(...NEAR_DIGITS), minLength: 8, maxLength: 22 }),
  validMsisdnArb.chain((m) => fc.constantFrom(`${m}\n`, ` ${m}`, `${m} `, `${m}0`, `+${m}`, `0${m}`, m.replace(/[0-9]/, (d) => String.fromCharCode(0xff10 + Number(d))),
    m.replace(/[0-9]$/, (d) => String.fromCharCode(0x0660 + Number(d))), `${m}\u0000`, `${m}\u200b`, m.slice(0, -1))),
  fc.constantFrom('', '+', '00', '0', '255', '+00255712000001', '0255712000001', '254712000001', '1'.repeat(21), '7'.repeat(8000)),
  nonStringArb,
).map((v) => JSON.stringify(v));

const hostileTxnArb = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 30 }),
  fc.string({ unit: fc.constantFrom(...'Aa0._:- /\\\n\u0000\u00e9\u202e<>{}"\''), minLength: 1, maxLength: 30 }),
  fc.constantFrom('', ' ', 'a'.repeat(26), 'a'.repeat(8000), 'a\n', 'ab\u0000', '${jndi:ldap://x}', "' OR 1=1 --"),
  nonStringArb,
).filter((v) => !(typeof v === 'string' && TXN.test(v))).map((v) => JSON.stringify(v));

const maxAgeArb = fc.oneof(
  fc.integer({ min: 1, max: 2400 }).map(String),
  fc.constantFrom('24.0', '1e3', '2.4e3', 'null'),
  fc.constantFrom('0', '-1', '2401', '1.5', '"24"', 'true', '1e400', '-0', '[24]', '{}', '99999999999999999999', '-1e-7'),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((d) => JSON.stringify(d)),
);

const RESERVED_KEYS = ['txn_id', 'msisdn', 'max_age'];
const extraKeyArb = fc.oneof(
  fc.constantFrom('__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__',
    'txn_id ', 'TXN_ID', 'msisdn\u0000', '', 'result', 'code'),
  fc.string({ unit: 'binary', maxLength: 12 }),
).filter((k) => !RESERVED_KEYS.includes(k));
const jsonTextArb = fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v));
const isValidTxnText = (text: string) => { const v: unknown = JSON.parse(text); return typeof v === 'string' && TXN.test(v); };

interface Fields {
  txn: string;
  msisdn: string;
  maxAge?: string;
  extras: [string, string][];
  decoys: [string, string][];
  decoysFirst: boolean;
}

const fieldsArb: fc.Arbitrary<Fields> = fc.record({
  txn: fc.oneof({ arbitrary: fc.constant(FRESH), weight: 3 }, { arbitrary: hostileTxnArb, weight: 1 }),
  msisdn: fc.oneof({ arbitrary: validMsisdnArb.map((m) => JSON.stringify(m)), weight: 3 }, { arbitrary: hostileMsisdnArb, weight: 1 }),
  maxAge: fc.option(maxAgeArb, { nil: undefined }),
  extras: fc.array(fc.tuple(extraKeyArb, jsonTextArb), { maxLength: 4 }),
  // A decoy that wins must not reuse a txn_id of another run: valid ids only come fresh.
  decoys: fc.array(fc.tuple(fc.constantFrom(...RESERVED_KEYS), fc.oneof(jsonTextArb.filter((t) => !isValidTxnText(t)), fc.constant(FRESH))), { maxLength: 2 }),
  decoysFirst: fc.boolean(),
}, { requiredKeys: ['txn', 'msisdn', 'extras', 'decoys', 'decoysFirst'] });

/** A JSON object text with the fields, extras and duplicate keys in the generated order. */
function render(f: Fields, omit: string[] = []): string {
  const fields: [string, string][] = [['txn_id', f.txn], ['msisdn', f.msisdn]];
  if (f.maxAge !== undefined) fields.push(['max_age', f.maxAge]);
  const kept = fields.filter(([k]) => !omit.includes(k));
  const pairs = f.decoysFirst ? [...f.decoys, ...f.extras, ...kept] : [...kept, ...f.extras, ...f.decoys];
  return `{${pairs.map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
}

// ---------------------------------------------------------------------------------------
// Checks shared by every class.

/** A partner-operation answer: documented status, documented shape (the harness validated it), the oracle's status. */
function expectAnswer(op: Op, inputClass: string, r: Reply | RawReply, expected?: number | number[]): void {
  if (r.status === undefined) throw new Error(`${inputClass}: no answer`);
  const status = r.status;
  if ('closed' in r) partnerApiSpec().assertResponse('post', pathOf(op), status, headerSource(r), r.body, r.text);
  const inner = (op === 'sim_swap' && status !== 200 ? (r.body as { response?: { code?: string } })?.response : r.body) as { code?: string } | undefined;
  expect(inner?.code).toBe(codeOf(status));
  expect(status).toBeLessThan(500);
  if (expected !== undefined) expect([expected].flat()).toContain(status);
  tally.record(inputClass, `${status} ${inner?.code}`);
}

/** Transport abuse: a JSON answer in the operation's shape, or Node's bare 4xx and a closed connection. */
function expectAnswerOrClosed(op: Op, inputClass: string, r: RawReply, bare: number[]): void {
  if (r.body !== undefined) {
    expectAnswer(op, inputClass, r);
    return;
  }
  expect(r.closed).toBe(true);
  if (r.status !== undefined) expect(bare).toContain(r.status);
  tally.record(inputClass, r.status === undefined ? 'closed, no answer' : `${r.status} bare, closed`, r.elapsedMs);
}

const unicodeEscapes = (s: string) => s.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

// ---------------------------------------------------------------------------------------

describe('hostile input on the REST operations', () => {
  let h: Harness;
  let big: Harness;
  let logs: CapturedLogs;
  const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();

  beforeAll(async () => {
    logs = captureLogs('warn');
    h = await startHarness({ env: { ...NO_THROTTLE, ...TIMEOUTS }, logger: logs.logger });
    big = await startHarness({ env: { ...NO_THROTTLE, BODY_LIMIT_BYTES: String(BIG_BODY_LIMIT) }, logger: logs.logger });
  });
  afterAll(async () => {
    await h?.close();
    await big?.close();
  });

  const target = (op: Op, query = signedQuery(DEMO)) => `${pathOf(op)}?${query}`;
  const jsonRequest = (op: Op, body: Buffer | string, headers: [string, string][] = []) =>
    buildRequest({ target: target(op), headers: [['Content-Type', 'application/json'], ...headers], body });

  describe.each(OPS)('%s', (op) => {
    it('when field values are random, of wrong types, duplicate keys or __proto__/constructor keys, then they get the status the contract gives them', async () => {
      await fc.assert(fc.asyncProperty(fieldsArb, fc.subarray(['txn_id', 'msisdn']), async (f, omit) => {
        const text = withFreshTxnIds(render(f, omit.length < 2 ? omit : []));
        const r = await h.post(op, text);
        expectAnswer(op, 'fields: values, types, duplicates, prototype keys', r, expectedStatus(op, Buffer.from(text)));
      }), params(150));
    });

    it('when the body is a random JSON document, then 400 11111 (or 413 when over the limit)', async () => {
      await fc.assert(fc.asyncProperty(fc.jsonValue({ maxDepth: 6 }), async (v) => {
        const text = JSON.stringify(v) ?? 'null';
        const r = await h.post(op, text);
        expectAnswer(op, 'random JSON documents', r, expectedStatus(op, Buffer.from(text)));
      }), params());
    });

    it('when the body is random text or almost-JSON, then 400 11111', async () => {
      const almostJson = fc.tuple(fc.json({ maxDepth: 3 }), fc.nat(), fc.string({ unit: 'binary', maxLength: 3 }), fc.nat({ max: 3 }))
        .map(([json, at, insert, cut]) => json.slice(0, at % (json.length + 1)) + insert + json.slice((at % (json.length + 1)) + cut));
      await fc.assert(fc.asyncProperty(fc.oneof(fc.string({ unit: 'binary', maxLength: 300 }), almostJson), async (text) => {
        const r = await h.post(op, text);
        expectAnswer(op, 'random text and almost-JSON', r, expectedStatus(op, Buffer.from(text)));
      }), params());
    });

    it('when the body is random bytes, or a valid body holds invalid UTF-8, then 400 11111', async () => {
      const splice = fc.tuple(fc.uint8Array({ minLength: 1, maxLength: 8 }), fc.constantFrom('msisdn', 'txn_id', 'extra'));
      await fc.assert(fc.asyncProperty(fc.oneof(fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b)), splice.map(([bytes, where]) => {
        const parts = { txn_id: `"${txnId('u8')}"`, msisdn: '"255712000001"', extra: '"x"' } as Record<string, string>;
        const [before, after] = [parts[where].slice(0, -1), '"'];
        return Buffer.concat([Buffer.from(`{${Object.entries(parts).filter(([k]) => k !== where).map(([k, v]) => `"${k}":${v},`).join('')}"${where}":${before}`),
          Buffer.from(bytes), Buffer.from(`${after}}`)]);
      })), async (body) => {
        const r = await rawRequest(h.server.port, jsonRequest(op, body));
        expectAnswer(op, 'random bytes and invalid UTF-8', r, expectedStatus(op, body));
      }), params());
    });

    it.each<[string, Buffer]>([
      ['a lone 0xFF in msisdn', Buffer.from([...Buffer.from('{"txn_id":"X","msisdn":"2557120000'), 0xff, ...Buffer.from('01"}')])],
      ['an overlong NUL (C0 80) in an ignored field', Buffer.from([...Buffer.from('{"txn_id":"X","msisdn":"255712000001","x":"'), 0xc0, 0x80, ...Buffer.from('"}')])],
      ['a UTF-16 surrogate encoded as UTF-8 (CESU)', Buffer.from([...Buffer.from('{"txn_id":"X","msisdn":"255712000001","x":"'), 0xed, 0xa0, 0x80, ...Buffer.from('"}')])],
      ['a truncated 3-byte sequence', Buffer.from([...Buffer.from('{"txn_id":"X","msisdn":"255712000001","x":"'), 0xe2, 0x82, ...Buffer.from('"}')])],
      ['a code point above U+10FFFF', Buffer.from([...Buffer.from('{"txn_id":"X","msisdn":"255712000001","x":"'), 0xf4, 0x90, 0x80, 0x80, ...Buffer.from('"}')])],
      ['UTF-16LE with a BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('{"txn_id":"X","msisdn":"255712000001"}', 'utf16le')])],
    ])('invalid UTF-8: %s gets 400 11111, even where the field would be ignored', async (_name, template) => {
      const body = Buffer.from(template.toString('latin1').replace('"X"', JSON.stringify(txnId('u8'))), 'latin1');
      const r = await rawRequest(h.server.port, jsonRequest(op, body));
      expectAnswer(op, 'random bytes and invalid UTF-8', r, 400);
      expect(JSON.stringify(r.body)).toMatch(/not valid (UTF-8|JSON)/);
    });

    it('when a valid body has a UTF-8 BOM or unicode in ignored fields, then it is answered normally', async () => {
      const note = JSON.stringify('caf\u00e9 \u{1f600} \u202e\u0000 \ufeff \u0301');
      for (const body of [`\ufeff{"txn_id":"${txnId()}","msisdn":"255712000001"}`, `{"txn_id":"${txnId()}","msisdn":"255712000001","note":${note}}`]) {
        const r = await h.post(op, body);
        expectAnswer(op, 'unicode', r, 200);
      }
    });

    it.each<[string, string]>([
      ['Arabic-Indic digits', '\u0660\u0667\u0661\u0662\u0660\u0660\u0660\u0660\u0660\u0661'],
      ['fullwidth digits', '\uff10\uff17\uff11\uff12\uff10\uff10\uff10\uff10\uff10\uff11'],
      ['Devanagari digits', '\u0966\u096d\u0967\u0968\u0966\u0966\u0966\u0966\u0966\u0967'],
      ['a zero-width space inside', '0712\u200b000001'],
      ['a right-to-left override', '\u202e0712000001'],
      ['a non-breaking space', '0712\u00a0000001'],
      ['a trailing newline', '0712000001\n'],
      ['a NUL', '0712000001\u0000'],
      ['an emoji', '0712000001\u{1f4f1}'],
      ['a lone surrogate', '0712000001\ud800'],
      ['a combining mark', '07120000011\u0301'],
    ])('unicode: an msisdn with %s gets 400 11111', async (_name, msisdn) => {
      const r = await h.post(op, `{"txn_id":"${txnId()}","msisdn":"${unicodeEscapes(msisdn)}"}`);
      expectAnswer(op, 'unicode', r, 400);
    });

    it('when __proto__, constructor or prototype keys are sent, then they are data: they neither fill missing fields nor pollute any prototype', async () => {
      const polluting = [
        `{"__proto__":{"txn_id":"${txnId()}","msisdn":"255712000001","polluted":true}}`,
        `{"constructor":{"prototype":{"txn_id":"${txnId()}","msisdn":"255712000001","polluted":true}}}`,
        `{"txn_id":"${txnId()}","msisdn":"255712000001","__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}`,
        `{"txn_id":"${txnId()}","msisdn":"255712000001","max_age":{"__proto__":24}}`,
      ];
      const statuses = [];
      for (const text of polluting) {
        const r = await h.post(op, text);
        expectAnswer(op, 'fields: values, types, duplicates, prototype keys', r, expectedStatus(op, Buffer.from(text)));
        statuses.push(r.status);
      }
      expect(statuses).toEqual(op === 'kyc' ? [400, 400, 200, 200] : [400, 400, 200, 400]);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
    });

    it("when the body is deeply nested, then it gets the contract's answer, never a stack overflow", async () => {
      const cases: [string, string, Harness, number][] = [
        ['arrays 4,000 deep', `{"txn_id":"${txnId()}","msisdn":"255712000001","x":${'['.repeat(4000)}${']'.repeat(4000)}}`, h, BODY_LIMIT],
        ['objects 1,300 deep', `{"txn_id":"${txnId()}","msisdn":"255712000001","x":${'{"a":'.repeat(1300)}1${'}'.repeat(1300)}}`, h, BODY_LIMIT],
        ['an msisdn 4,000 arrays deep', `{"txn_id":"${txnId()}","msisdn":${'['.repeat(4000)}${']'.repeat(4000)}}`, h, BODY_LIMIT],
        ['arrays 500,000 deep (1 MiB limit)', `{"txn_id":"${txnId()}","msisdn":"255712000001","x":${'['.repeat(500_000)}${']'.repeat(500_000)}}`, big, BIG_BODY_LIMIT],
        ['unclosed arrays 1,000,000 deep (1 MiB limit)', `{"txn_id":"${txnId()}","msisdn":"255712000001","x":${'['.repeat(1_000_000)}`, big, BIG_BODY_LIMIT],
        ['objects 150,000 deep (1 MiB limit)', `{"txn_id":"${txnId()}","msisdn":"255712000001","x":${'{"a":'.repeat(150_000)}1${'}'.repeat(150_000)}}`, big, BIG_BODY_LIMIT],
      ];
      for (const [name, text, server, limit] of cases) {
        const r = await rawRequest(server.server.port, buildRequest({ target: `${pathOf(op)}?${signedQuery(DEMO)}`, headers: [['Content-Type', 'application/json']], body: text }));
        expect([name, r.status]).toEqual([name, expectedStatus(op, Buffer.from(text), limit)]);
        expectAnswer(op, 'deep nesting', r);
      }
    });

    it('when strings and bodies are huge, then 400 or 413 11111, or a closed connection once the body is far over the limit', async () => {
      const fresh = () => txnId();
      const within: [string, string][] = [
        ['an 8,000-character msisdn', `{"txn_id":"${fresh()}","msisdn":"${'7'.repeat(8000)}"}`],
        ['an 8,000-character txn_id', `{"txn_id":"${'a'.repeat(8000)}","msisdn":"255712000001"}`],
        ['a body one byte over 8 KiB', `{"txn_id":"${fresh()}","msisdn":"255712000001","pad":"${'x'.repeat(BODY_LIMIT)}"}`.slice(0, BODY_LIMIT + 1)],
        ['8,000 escaped unicode characters', `{"txn_id":"${fresh()}","msisdn":"255712000001","pad":"${'\\u00e9'.repeat(1300)}"}`],
      ];
      for (const [name, text] of within) {
        const r = await h.post(op, text);
        expect([name, r.status]).toEqual([name, expectedStatus(op, Buffer.from(text))]);
        expectAnswer(op, 'huge strings and bodies', r);
      }
      const valid = `{"txn_id":"${fresh()}","msisdn":"255712000001"}`;
      const transport: [string, Buffer][] = [
        ['a 5 MB body', jsonRequest(op, 'x'.repeat(5_000_000))],
        ['a Content-Length of 50 MB with 40 bytes sent (drained until the request timeout)', buildRequest({ target: target(op), headers: [['Content-Type', 'application/json']], body: valid, contentLength: 50_000_000 })],
        ['3 MiB in chunks', Buffer.concat([Buffer.from(`POST ${target(op)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`),
          Buffer.from(`${`100000\r\n${'a'.repeat(0x100000)}\r\n`.repeat(3)}0\r\n\r\n`)])],
        ['a gzip bomb (1 MiB of zeros in 1 KiB)', jsonRequest(op, gzipSync(Buffer.alloc(1_048_576, 0x30)), [['Content-Encoding', 'gzip']])],
        ['an unknown Content-Encoding', jsonRequest(op, valid, [['Content-Encoding', 'compress-me']])],
      ];
      for (const [name, bytes] of transport) {
        const r = await rawRequest(h.server.port, bytes, 10_000);
        if (r.body !== undefined && r.status !== 413 && r.status !== 400) throw new Error(`${name}: unexpected ${r.status}`);
        // The body reader drains a refused body before answering, so a body that never comes ends in the request timeout.
        expectAnswerOrClosed(op, 'huge strings and bodies', r, [400, 408, 413]);
      }
    });

    it('when a valid body is gzip-encoded, then it is read (body limits apply to the inflated size)', async () => {
      const r = await rawRequest(h.server.port, jsonRequest(op, gzipSync(`{"txn_id":"${txnId()}","msisdn":"255712000001"}`), [['Content-Encoding', 'gzip']]));
      expectAnswer(op, 'huge strings and bodies', r, 200);
    });

    it.each<[string, BufferEncoding]>([
      ['utf-16le', 'utf16le'], ['utf-16', 'utf16le'], ['utf-7', 'latin1'], ['us-ascii', 'latin1'], ['iso-8859-1', 'latin1'],
    ])('a body declared as charset=%s is refused with 400 11111, even when it decodes to a valid request', async (charset, encoding) => {
      const body = Buffer.from(`{"txn_id":"${txnId()}","msisdn":"255712000001"}`, encoding);
      const r = await rawRequest(h.server.port, buildRequest({ target: target(op), headers: [['Content-Type', `application/json; charset=${charset}`]], body }));
      expectAnswer(op, 'content types and encodings', r, 400);
    });

    it.each<[string, string, number]>([
      ['application/json; charset=utf-8', 'utf-8 named', 200],
      ['application/json; charset="UTF-8"', 'quoted charset', 200],
      ['Application/JSON', 'upper-case type', 200],
      ['application/json; charset=latin1', 'latin1', 400],
      ['application/json; charset=utf-16', 'utf-16', 400],
      ['application/json; charset=nonsense', 'an unknown charset', 400],
      ['application/json-patch+json', 'a JSON-ish type', 400],
      ['application/x-www-form-urlencoded', 'a form', 400],
      ['multipart/form-data; boundary=x', 'multipart', 400],
      ['text/plain', 'text', 400],
      ['application/json, text/plain', 'two types', 400],
      ['', 'an empty type', 400],
    ])('content type %s (%s) gets %i', async (type, _name, status) => {
      const r = await h.post(op, `{"txn_id":"${txnId()}","msisdn":"255712000001"}`, { contentType: type });
      expectAnswer(op, 'content types and encodings', r, status);
    });

    it('when query strings are random (repeated, array-style, percent-garbage, huge), then 401 11111', async () => {
      const name = fc.oneof(fc.constantFrom('api_key', 'timestamp', 'sig', 'api_key[]', 'sig[0]', 'API_KEY', 'api%5Fkey', '', '__proto__'),
        fc.string({ maxLength: 8 }).map(encodeURIComponent));
      const value = fc.oneof(
        fc.string({ unit: 'binary', maxLength: 40 }).map(encodeURIComponent),
        fc.constantFrom('demo-key', String(Math.floor(Date.now() / 1000)), 'd41d8cd98f00b204e9800998ecf8427e', '%', '%G1', '%E0%A4%A', '%00', '%FF%FE',
          '1e12', '-1', '99999999999999999999', '1700000000.5', 'a'.repeat(1500), '0'.repeat(128), 'f'.repeat(129)),
      );
      const pair = fc.oneof(fc.tuple(name, value).map(([n, v]) => `${n}=${v}`), name);
      await fc.assert(fc.asyncProperty(fc.array(pair, { maxLength: 8 }), async (pairs) => {
        const r = await h.post(op, { txn_id: txnId(), msisdn: '255712000001' }, { query: pairs.join('&') });
        expectAnswer(op, 'bad query parameters', r, 401);
      }), params());
    });

    it('when junk parameters are added to a signed query, then it is answered normally', async () => {
      const junk = fc.tuple(fc.string({ maxLength: 10 }), fc.string({ unit: 'binary', maxLength: 20 }))
        .filter(([n]) => !['api_key', 'timestamp', 'sig'].includes(n))
        .map(([n, v]) => `${encodeURIComponent(n)}=${encodeURIComponent(v)}`);
      await fc.assert(fc.asyncProperty(fc.array(junk, { maxLength: 10 }), fc.boolean(), async (pairs, before) => {
        const query = before ? [...pairs, signedQuery(DEMO)].join('&') : [signedQuery(DEMO), ...pairs].join('&');
        const r = await h.post(op, { txn_id: txnId(), msisdn: '255712000001' }, { query });
        expectAnswer(op, 'bad query parameters', r, 200);
      }), params(50));
    });

    it.each<[string, number, () => string]>([
      ['the credentials repeated', 401, () => `${signedQuery(DEMO)}&${signedQuery(DEMO)}`],
      ['a second, empty sig', 401, () => `${signedQuery(DEMO)}&sig=`],
      ['the credentials after 1,000 other parameters (the parser keeps the first 1,000)', 401, () => `${Array.from({ length: 1000 }, (_, i) => `p${i}=1`).join('&')}&${signedQuery(DEMO)}`],
      ['the credentials before 1,000 other parameters', 200, () => `${signedQuery(DEMO)}&${Array.from({ length: 1000 }, (_, i) => `p${i}=1`).join('&')}`],
      ['a 12 KB sig', 401, () => signedQuery(DEMO).replace(/sig=[^&]*/, `sig=${'a'.repeat(12_000)}`)],
      ['a timestamp of 17 digits', 401, () => signedQuery(DEMO, { timestamp: '1'.repeat(17) })],
      ['a negative timestamp', 401, () => signedQuery(DEMO, { timestamp: '-1700000000' })],
      ['a fractional timestamp', 401, () => signedQuery(DEMO, { timestamp: `${Math.floor(Date.now() / 1000)}.0` })],
      ['Arabic-Indic digits in the timestamp', 401, () => signedQuery(DEMO, { timestamp: '\u0661\u0667\u0660\u0660\u0660\u0660\u0660\u0660\u0660\u0660' })],
      ['an upper-case sig', 200, () => signedQuery(DEMO).replace(/sig=([^&]*)/, (_m, s: string) => `sig=${s.toUpperCase()}`)],
    ])('a query with %s gets %i', async (_name, status, query) => {
      const r = await h.post(op, { txn_id: txnId(), msisdn: '255712000001' }, { query: query() });
      expectAnswer(op, 'bad query parameters', r, status);
    });

    it("when headers flood in, then random ones are ignored while they fit Node's 16 KiB header limit, and a bare 431 comes beyond it", async () => {
      const SKIP = new Set(['host', 'content-length', 'content-type', 'transfer-encoding', 'connection', 'expect', 'upgrade', 'te', 'trailer', 'content-encoding']);
      const headerName = fc.oneof(fc.stringMatching(/^x-[a-z0-9-]{1,24}$/),
        fc.constantFrom('accept', 'user-agent', 'cookie', 'x-forwarded-for', 'forwarded', 'x-real-ip', 'range', 'origin', 'referer',
          'x-http-method-override', 'x-original-url', 'x-correlator', 'authorization', 'if-none-match', 'accept-encoding', 'x-api-key'))
        .filter((n) => !SKIP.has(n.toLowerCase()));
      const headerValue = fc.string({ unit: fc.constantFrom(...'abcxyz0189-_=;,./:+ "\'()<>{}'), minLength: 1, maxLength: 120, size: 'max' }).map((v) => v.trim() || 'v');
      // size 'max': lengths spread over the whole range, so about half the runs cross the 16 KiB limit.
      await fc.assert(fc.asyncProperty(fc.array(fc.tuple(headerName, headerValue), { maxLength: 300, size: 'max' }), async (headers) => {
        const body = `{"txn_id":"${txnId()}","msisdn":"255712000001"}`;
        const request = buildRequest({ target: target(op), headers: [['Content-Type', 'application/json'], ...headers], body });
        const r = await rawRequest(h.server.port, request);
        // Node counts the request target and each header's name and value, not the separators.
        const counted = target(op).length + [['Host', '127.0.0.1'], ['Connection', 'close'], ['Content-Length', '00'], ['Content-Type', 'application/json'], ...headers]
          .reduce((n, [k, v]) => n + k.length + v.length, 0);
        if (counted < MAX_HEADER_BYTES - 64) {
          expectAnswer(op, 'header floods', r, 200);
        } else if (counted > MAX_HEADER_BYTES + 64) {
          expectAnswerOrClosed(op, 'header floods', r, [431]);
          expect(r.status).toBe(431);
        } else {
          expectAnswerOrClosed(op, 'header floods', r, [431]);
        }
      }), params(60));
    });

    it('when 1,000 headers come, then they are served; when a 1,001st comes, then a bare 431 instead of it being dropped unseen (Node 24)', async () => {
      const body = `{"txn_id":"${txnId()}","msisdn":"255712000001"}`;
      const junk = (n: number) => Array.from({ length: n }, (_, i): [string, string] => [`x${i}`, 'v']);
      // Host, Connection and Content-Length come first: 996 more make 999, and Content-Type the 1,000th.
      expectAnswer(op, 'header floods', await rawRequest(h.server.port, buildRequest({ target: target(op), headers: [...junk(996), ['Content-Type', 'application/json']], body })), 200);
      const over = await rawRequest(h.server.port, buildRequest({ target: target(op), headers: [...junk(997), ['Content-Type', 'application/json']], body }));
      expect(over.body).toBeUndefined();
      expect(over.status).toBe(431);
    });

    it.each<[string, () => Buffer, number[]]>([
      ['one 20 KB header', () => jsonRequest(op, '{}', [['X-Big', 'a'.repeat(20_000)]]), [431]],
      ['a 20 KB URL', () => buildRequest({ target: `${target(op)}&pad=${'a'.repeat(20_000)}`, headers: [['Content-Type', 'application/json']], body: '{}' }), [431]],
      ['3,000 small headers', () => jsonRequest(op, '{}', Array.from({ length: 3000 }, (_, i): [string, string] => [`x-h${i}`, 'v'])), [431]],
      ['a header with a bare CR in its value', () => Buffer.from(`POST ${target(op)} HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}`), [400]],
      ['Content-Length and Transfer-Encoding together (smuggling)', () => Buffer.from(`POST ${target(op)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`), [400]],
      ['two different Content-Lengths', () => Buffer.from(`POST ${target(op)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}`), [400]],
      ['raw bytes 0xFF in the request target', () => Buffer.concat([Buffer.from(`POST ${pathOf(op)}?api_key=`), Buffer.from([0xff, 0xfe]), Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}')]), [400]],
      ['a request line that is not HTTP', () => Buffer.from('GARBAGE\r\n\r\n'), [400]],
    ])('transport abuse: %s gets a bare 4xx and a closed connection', async (_name, request, bare) => {
      const r = await rawRequest(h.server.port, request());
      expect(r.body).toBeUndefined();
      expectAnswerOrClosed(op, 'header floods and malformed HTTP', r, bare);
      expect(r.status).toBeDefined();
    });

    it('when an x-correlator is not latin1-clean, too long or repeated, then it is replaced and the request answered', async () => {
      const body = () => `{"txn_id":"${txnId()}","msisdn":"255712000001"}`;
      const variants: [string, string][][] = [
        [['x-correlator', 'a'.repeat(300)]],
        [['x-correlator', 'abc'], ['x-correlator', 'def']],
        [['x-correlator', '<script>alert(1)</script> ']],
      ];
      for (const extra of variants) {
        const r = await rawRequest(h.server.port, jsonRequest(op, body(), extra));
        expectAnswer(op, 'header floods', r, 200);
        expect(r.headers.get('x-correlator')).toMatch(/^[0-9a-f-]{36}$/);
      }
      const utf8 = Buffer.concat([Buffer.from(`POST ${target(op)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nx-correlator: ab`),
        Buffer.from([0xe2, 0x80, 0xae]), Buffer.from(`\r\nContent-Length: ${Buffer.byteLength(body())}\r\n\r\n${body()}`)]);
      const r = await rawRequest(h.server.port, utf8);
      expectAnswer(op, 'header floods', r, 200);
      expect(r.headers.get('x-correlator')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it.each(['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND', 'TRACE'])('when the method is %s, then the operation gets 405 11111 in its shape with Allow: POST', async (method) => {
      const r = await rawRequest(h.server.port, buildRequest({ method, target: target(op), headers: [['Content-Type', 'application/json']], body: '{}' }));
      expect(r.status).toBe(405);
      expect(r.headers.get('allow')).toBe('POST');
      const inner = (op === 'kyc' ? r.body : (r.body as { response: unknown }).response) as { code: string; desc: string };
      expect(Object.keys(r.body as object).sort()).toEqual(op === 'kyc' ? ['code', 'desc'] : ['response']);
      expect(inner.code).toBe('11111');
      tally.record('methods', `405 ${inner.code}`);
    });
  });

  it.each(['__proto__', 'constructor', 'hasOwnProperty', 'toString'])('when the txn_id is %s, then it is an ordinary id: answered, replayed, and a conflict for another request', async (id) => {
    const first = await h.post('kyc', { txn_id: id, msisdn: '255712000001' });
    expectAnswer('kyc', 'fields: values, types, duplicates, prototype keys', first, 200);
    const again = await h.post('kyc', { txn_id: id, msisdn: '255712000001' });
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expectAnswer('kyc', 'fields: values, types, duplicates, prototype keys', await h.post('kyc', { txn_id: id, msisdn: '255712000002' }), 409);
    expectAnswer('sim_swap', 'fields: values, types, duplicates, prototype keys', await h.post('sim_swap', { txn_id: id, msisdn: '255712000001' }), 409);
  });

  describe('slow clients', () => {
    const head = (op: Op, length: number) => `POST ${pathOf(op)}?${signedQuery(DEMO)} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;
    // Node checks the timeouts every HEADERS_TIMEOUT_MS / 4 (server.ts), so a cut comes at most that late.
    const slack = HEADERS_TIMEOUT_MS / 4 + 500;

    it('when headers trickle slower than HEADERS_TIMEOUT_MS, then they are cut with a bare 408 and a closed connection', async () => {
      const r = await trickle(h.server.port, `POST ${pathOf('kyc')}?${signedQuery(DEMO)} HTTP/1.1\r\nHost: x\r\n`, `X-Slow: ${'a'.repeat(200)}`, 100, HEADERS_TIMEOUT_MS * 6);
      expectAnswerOrClosed('kyc', 'slow clients', r, [408]);
      expect(r.closed).toBe(true);
      expect(r.elapsedMs).toBeLessThan(HEADERS_TIMEOUT_MS + slack);
    });

    it('when a body trickles slower than REQUEST_TIMEOUT_MS, then it is cut with a bare 408 and a closed connection', async () => {
      const body = `{"txn_id":"${txnId()}","msisdn":"255712000001","pad":"${'a'.repeat(150)}"}`;
      const r = await trickle(h.server.port, head('sim_swap', Buffer.byteLength(body)), body, 100, REQUEST_TIMEOUT_MS * 4);
      expectAnswerOrClosed('sim_swap', 'slow clients', r, [408]);
      expect(r.closed).toBe(true);
      expect(r.elapsedMs).toBeLessThan(REQUEST_TIMEOUT_MS + slack);
    });

    it('when a slow body still arrives within REQUEST_TIMEOUT_MS, then it is answered normally', async () => {
      const body = `{"txn_id":"${txnId()}","msisdn":"255712000001"}`;
      const r = await trickle(h.server.port, head('kyc', Buffer.byteLength(body) + 10), `${' '.repeat(10)}${body}`, 15, REQUEST_TIMEOUT_MS * 2);
      expectAnswer('kyc', 'slow clients', r, 200);
    });

    it('when 50 slowloris connections come at once, then they neither starve a normal request nor survive their timeout', async () => {
      let inPlace = 0;
      const slow = Array.from({ length: 50 }, (_, i) => trickle(h.server.port, `POST ${pathOf(i % 2 ? 'kyc' : 'sim_swap')}?${signedQuery(DEMO)} HTTP/1.1\r\nHost: x\r\n`, 'X-Slow: '.padEnd(400, 'a'), 150, REQUEST_TIMEOUT_MS * 3, () => { inPlace++; }));
      await until(() => inPlace === 50, 'the 50 slow clients connected, their heads sent', 10_000, 10);
      const started = Date.now();
      const normal = await h.post('kyc', { txn_id: txnId(), msisdn: '255712000001' });
      const normalMs = Date.now() - started;
      expectAnswer('kyc', 'slow clients', normal, 200);
      expect(normalMs).toBeLessThan(500);
      const cut = await Promise.all(slow);
      for (const r of cut) expectAnswerOrClosed('kyc', 'slow clients', r, [408]);
      expect(cut.every((r) => r.closed && r.elapsedMs < HEADERS_TIMEOUT_MS + slack)).toBe(true);
      tally.record('slow clients: normal request beside 50 slowloris', '200 00000', normalMs);
    });
  });

  it('when all of the above is done, then the server is alive, answers normally, logged no unexpected error and answered no 5xx', async () => {
    expect((await fetch(`${h.url}/healthz`)).status).toBe(200);
    for (const op of OPS) expectAnswer(op, 'after the storm', await h.post(op, { txn_id: txnId(), msisdn: '255712000006' }), 200);
    const bad = logs.lines().filter((l) => l.level === 'error' || l.level === 'fatal' || (typeof l.status === 'number' && l.status >= 500));
    expect(bad).toEqual([]);
    expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(prototypeBefore);
  });
});

// ---------------------------------------------------------------------------------------

interface GqlAnswer {
  status: number;
  body: { data?: unknown; errors?: { message: string; extensions?: { code?: string; stacktrace?: unknown } }[] };
  ms: number;
}

/** A GraphQL answer: JSON, below 500, and every error a 11111 with no stack (CONTRACT §2). */
function expectGraphqlAnswer(inputClass: string, r: GqlAnswer, expected?: { status?: number; refused?: boolean }): void {
  expect(r.status).toBeLessThan(500);
  const errors = r.body.errors ?? [];
  for (const e of errors) {
    expect(e.extensions?.code).toBe('11111');
    expect(e.extensions?.stacktrace).toBeUndefined();
    expect(e.message).toMatch(/^Error Process/);
  }
  if (r.status !== 200) expect(errors.length).toBeGreaterThan(0);
  if (expected?.status !== undefined) expect(r.status).toBe(expected.status);
  if (expected?.refused !== undefined) expect(errors.length > 0).toBe(expected.refused);
  tally.record(`graphql: ${inputClass}`, `${r.status} ${errors.length ? '11111' : 'data'}`, r.ms);
}

describe('hostile input on GraphQL', () => {
  let h: Harness;
  let big: Harness;
  let logs: CapturedLogs;

  beforeAll(async () => {
    logs = captureLogs('warn');
    h = await startHarness({ env: NO_THROTTLE, logger: logs.logger });
    big = await startHarness({ env: { ...NO_THROTTLE, BODY_LIMIT_BYTES: String(BIG_BODY_LIMIT) }, logger: logs.logger });
  });
  afterAll(async () => {
    await h?.close();
    await big?.close();
  });

  async function gql(server: Harness, body: string): Promise<GqlAnswer> {
    const started = Date.now();
    const res = await fetch(`${server.url}/graphql?${signedQuery(DEMO)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const text = await res.text();
    return { status: res.status, body: graphqlBody<unknown>(text), ms: Date.now() - started };
  }
  const q = (query: string, variables?: unknown) => JSON.stringify({ query, variables });
  const upstreamCalls = (server: Harness) => Object.values(server.sim.calls()).reduce((a, b) => a + b, 0);
  /** As many copies of a piece as fit the default body limit. */
  const fill = (piece: (i: number) => string, budget = BODY_LIMIT - 300) => {
    const parts: string[] = [];
    let size = 0;
    // Measured as it will be sent: inside a JSON string, where each quote takes two bytes.
    for (let i = 0; size + JSON.stringify(piece(i)).length - 1 < budget; i++) {
      parts.push(piece(i));
      size += JSON.stringify(piece(i)).length - 1;
    }
    return parts.join(' ');
  };

  it('when an alias flood of lookups comes, then the token or cost limit refuses it with 400 11111 before any upstream call', async () => {
    h.sim.resetCalls();
    const r = await gql(h, q(`{ ${fill((i) => `a${i}:kyc(msisdn:"${i}"){isValid}`)} }`));
    expectGraphqlAnswer('alias floods', r, { status: 400, refused: true });
    // Whichever limit speaks first (the parser's token limit or the cost rule), nothing is looked up.
    expect(r.body.errors![0].message).toMatch(/query cost \d+ exceeds|contains more th\w+ 2000 tokens/);
    expect(upstreamCalls(h)).toBe(0);
  });

  it('when an alias flood of a free field comes, then it is answered, and fast', async () => {
    const r = await gql(h, q(`{ ${fill((i) => `a${i}:__typename`)} }`));
    expectGraphqlAnswer('alias floods', r, { status: 200, refused: false });
    expect(r.ms).toBeLessThan(1000);
  });

  it('when an alias flood is over the body limit, then 413 11111', async () => {
    const r = await gql(h, q(`{ ${Array.from({ length: 2000 }, (_, i) => `a${i}:kyc(msisdn:"255712000001"){isValid}`).join(' ')} }`));
    expectGraphqlAnswer('alias floods', r, { status: 413, refused: true });
  });

  it.each<[string, number, () => string]>([
    ['8 KiB of opening braces', 400, () => q('{'.repeat(BODY_LIMIT - 100))],
    ['a list argument 4,000 deep', 400, () => q(`{ kyc(msisdn: ${'['.repeat(3900)}"1"${']'.repeat(3900)}) { isValid } }`)],
    ['selections below a scalar', 400, () => q('{ kyc(msisdn: "255712000001") { msisdn { a { b { c { d } } } } } }')],
    ['a batch nested to the depth limit through fragments', 200, () => q('{ verifyCustomers(msisdns: ["255712000001"]) { ...A } } fragment A on CustomerVerification { kyc { ...B } } fragment B on Kyc { msisdn isValid __typename }')],
    ['a chain of fragments filling 8 KiB (the last one unknown)', 400, () => q(`{ ...F0 } ${fill((i) => `fragment F${i} on Query { __typename ...F${i + 1} }`)}`)],
    ['a fragment cycle', 400, () => q('{ ...A } fragment A on Query { ...B } fragment B on Query { ...A }')],
  ])('deep queries: %s gets %i, never 5xx', async (_name, status, body) => {
    const r = await gql(h, body());
    expectGraphqlAnswer('deep queries', r, { status });
  });

  it.each<[string, () => string]>([
    ['the same field repeated to fill 8 KiB', () => q(`{ ${fill(() => 'kyc(msisdn:"255712000001"){isValid}')} }`)],
    ['conflicting same-name fields filling 8 KiB', () => q(`{ ${fill((i) => `kyc(msisdn:"${i}"){isValid}`)} }`)],
    ['a directive repeated to fill 8 KiB', () => q(`{ __typename ${fill(() => '@skip(if: false)')} }`)],
    ['variables declared to fill 8 KiB', () => q(`query(${fill((i) => `$v${i}: String`)}) { __typename }`)],
    ['operations declared to fill 8 KiB', () => q(fill((i) => `query Q${i} { __typename }`))],
    ['300 queries in one array (batching)', () => JSON.stringify(Array.from({ length: 300 }, () => ({ query: '{__typename}' })))],
  ])('wide queries: %s is refused or answered, never 5xx', async (_name, body) => {
    const r = await gql(h, body());
    expectGraphqlAnswer('wide queries', r);
  });

  it('when a batch has 10,000 items, then 413 11111 under the default body limit, and a 11111 with no upstream call when the limit lets it through', async () => {
    const numbers = Array.from({ length: 10_000 }, (_, i) => `2557${String(i).padStart(8, '0')}`);
    const query = 'query($m: [String!]!) { verifyCustomers(msisdns: $m) { msisdn kyc { isValid } simSwap { simSwapped } error { code desc } } }';
    const small = await gql(h, q(query, { m: numbers }));
    expectGraphqlAnswer('10,000-item batch', small, { status: 413, refused: true });
    big.sim.resetCalls();
    // In variables the batch reaches the resolver's size check; written inline, its 10,000
    // literals are refused earlier by the parser's token limit.
    const viaVariables = await gql(big, q(query, { m: numbers }));
    expectGraphqlAnswer('10,000-item batch', viaVariables, { refused: true });
    expect(viaVariables.body.errors![0].message).toMatch(/at most 100/);
    const inline = await gql(big, q(`{ verifyCustomers(msisdns: [${numbers.map((n) => `"${n}"`).join(',')}]) { msisdn kyc { isValid } } }`));
    expectGraphqlAnswer('10,000-item batch', inline, { status: 400, refused: true });
    expect(inline.body.errors![0].message).toMatch(/contains more th\w+ 2000 tokens/);
    expect(upstreamCalls(big)).toBe(0);
  });

  it('when the body is random JSON or the query random text, then a 11111 or data, never 5xx', async () => {
    const queryText = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }),
      fc.array(fc.constantFrom('{', '}', '(', ')', '[', ']', '...', 'kyc', 'simSwap', 'verifyCustomers', 'msisdn:', '"255712000001"', 'isValid', '@skip(if:true)',
        'fragment', 'on', 'Query', 'F', '$v', ':', 'String!', 'query', 'mutation', 'subscription', '__typename', '__schema', '#', '\n', '"""'), { maxLength: 40 }).map((t) => t.join(' ')));
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null'),
      queryText.map((t) => q(t)),
      fc.tuple(queryText, fc.jsonValue({ maxDepth: 2 }), fc.jsonValue({ maxDepth: 1 })).map(([t, v, o]) => JSON.stringify({ query: t, variables: v, operationName: o })),
    );
    await fc.assert(fc.asyncProperty(body, async (b) => {
      expectGraphqlAnswer('random bodies and queries', await gql(h, b));
    }), params());
  });

  it('when the body limit is 1 MiB and a list argument is 100,000 deep, then 400 11111', async () => {
    const r = await gql(big, q(`{ kyc(msisdn: ${'['.repeat(100_000)}"1"${']'.repeat(100_000)}) { isValid } }`));
    expectGraphqlAnswer('deep queries', r, { status: 400 });
  });

  // graphql-js's NoFragmentCyclesRule recurses once per fragment; the parser's token limit
  // refuses such a document before validation can overflow the stack.
  it('when the body limit is 1 MiB and a chain of 5,000 fragments comes, then 400 11111, not a 500', async () => {
    const chain = Array.from({ length: 5000 }, (_, i) => `fragment F${i} on Query { __typename ${i < 4999 ? `...F${i + 1}` : ''} }`).join(' ');
    const r = await gql(big, q(`{ ...F0 } ${chain}`));
    expectGraphqlAnswer('deep queries', r, { status: 400 });
  });

  it('when all of the above is done, then no unexpected error was logged and nothing was answered with a 5xx', () => {
    const bad = logs.lines().filter((l) => l.level === 'error' || l.level === 'fatal' || (typeof l.status === 'number' && l.status >= 500));
    expect(bad).toEqual([]);
  });
});

afterAll(() => {
  tally.writeIfRequested({ seed: SEED, runs: RUNS, bodyLimitBytes: BODY_LIMIT, requestTimeoutMs: REQUEST_TIMEOUT_MS, headersTimeoutMs: HEADERS_TIMEOUT_MS });
});
