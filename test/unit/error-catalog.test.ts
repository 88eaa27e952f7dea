import { CAMARA_API_OVERRIDES, CamaraOverrides, ERROR_CATALOG, ErrorKind } from '../../src/errors/error-catalog';
import { DomainError } from '../../src/errors/domain-errors';
import { bearerFailureOf, camaraLookup, graphqlFailureOf, legacyFailureOf, oauthFailureOf } from '../../src/errors/error-lookup';
import { camaraFailureOf } from '../../src/camara/error-info';
import { readFileSync, readdirSync } from 'node:fs';
import { load } from 'js-yaml';
import { CAMARA_DIR } from '../support/camara-spec';

/** A domain error of any row, as a feature's own class would be. */
class RowError extends DomainError {
  constructor(readonly kind: ErrorKind, reason: string, retryAfterS?: number) {
    super(reason, retryAfterS);
  }
}

const KINDS = Object.keys(ERROR_CATALOG) as ErrorKind[];

/** Every `status code` pair an ErrorInfo schema of the CAMARA documents allows (enums of both). */
function documentedErrors(): Set<string> {
  const pairs = new Set<string>();
  const walk = (node: unknown): void => {
    if (typeof node !== 'object' || node === null) return;
    const props = (node as { properties?: Record<string, { enum?: unknown[] }> }).properties;
    for (const status of props?.status?.enum ?? []) for (const code of props?.code?.enum ?? []) pairs.add(`${String(status)} ${String(code)}`);
    Object.values(node).forEach(walk);
  };
  for (const file of readdirSync(CAMARA_DIR).filter((f) => f.endsWith('.yaml'))) walk(load(readFileSync(`${CAMARA_DIR}/${file}`, 'utf8')));
  return pairs;
}

/** The CAMARA Commonalities codes the documents refer to without listing them (docs/camara.md). */
const COMMONALITIES = ['405 METHOD_NOT_ALLOWED', '503 UNAVAILABLE', '500 INTERNAL'];

describe('the error catalog', () => {
  test.each(KINDS)('when %s is raised, then every interface shows its row', (kind) => {
    const row = ERROR_CATALOG[kind];
    const err = new RowError(kind, 'why it failed', 7);

    const legacy = legacyFailureOf(err);
    const graphql = graphqlFailureOf(err);
    const camara = camaraFailureOf(err);
    const oauth = oauthFailureOf(err);

    const base = row.legacy[0] === '11111' ? 'Error Process' : 'Unexpected system Error';
    expect(legacy).toEqual({ status: row.legacy[1], code: row.legacy[0], desc: `${base}: why it failed`, retryAfterS: 7, replayed: false, unexpected: false });
    expect([err.code, err.httpStatus, err.desc]).toEqual([legacy.code, legacy.status, legacy.desc]);
    expect(graphql).toEqual({ code: row.graphql, desc: `${base}: why it failed`, status: row.legacy[1], retryAfterS: 7, unexpected: false });
    if ('camara' in row) {
      expect(camara).toEqual({ info: { status: row.camara[0], code: row.camara[1], message: 'why it failed' }, retryAfterS: 7, unexpected: false });
    } else {
      expect(camara).toEqual({ info: { status: 500, code: 'INTERNAL', message: 'Unknown server error. Typically a server bug.' }, unexpected: true });
    }
    if ('oauth' in row) {
      expect(oauth).toEqual({ status: row.oauth[1], error: row.oauth[0], description: 'why it failed', retryAfterS: 7, unexpected: false });
    } else {
      expect(oauth).toEqual({ status: 500, error: 'server_error', description: 'unexpected error', unexpected: true });
    }
    expect(bearerFailureOf(err)).toEqual('bearer' in row ? { error: row.bearer, reason: 'why it failed' } : undefined);
  });

  test('when a row is read, then its statuses are HTTP error statuses and its codes agree', () => {
    for (const row of Object.values(ERROR_CATALOG)) {
      const statuses = [row.legacy[1], 'camara' in row ? row.camara[0] : 400, 'oauth' in row ? row.oauth[1] : 400];
      expect(statuses.every((s) => s >= 400 && s <= 599)).toBe(true);
      // The legacy code says whose fault it is; the status must agree (CONTRACT §1.3).
      expect(row.legacy[0]).toBe(row.legacy[1] >= 500 ? '9999' : '11111');
    }
  });

  test('when a row names a CAMARA status and code, then a CAMARA document (or Commonalities) declares that pair', () => {
    const documented = documentedErrors();
    expect(documented.size).toBeGreaterThan(10);
    const named = [
      ...Object.values(ERROR_CATALOG).flatMap((row) => ('camara' in row ? [row.camara] : [])),
      ...Object.values(CAMARA_API_OVERRIDES).flatMap((perApi) => Object.values(perApi)),
    ].flatMap((pair) => (pair ? [`${pair[0]} ${pair[1]}`] : []));
    expect(named.filter((pair) => !documented.has(pair) && !COMMONALITIES.includes(pair))).toEqual([]);
  });

  test('when a condition has no reason, then CAMARA shows the code\'s fixed message', () => {
    expect(camaraFailureOf(new RowError('UNAUTHENTICATED', '')).info.message)
      .toBe('Request not authenticated due to missing, invalid, or expired credentials. A new authentication is required.');
  });

  test('when an API overrides a row, then only that API\'s CAMARA answer changes', () => {
    const overrides: CamaraOverrides = { 'kyc-match': { UNNECESSARY_IDENTIFIER: [403, 'INVALID_TOKEN_CONTEXT'] } };
    const err = new RowError('UNNECESSARY_IDENTIFIER', 'the token already names the phone number');
    expect(camaraLookup(err, 'kyc-match', overrides)).toMatchObject({ status: 403, code: 'INVALID_TOKEN_CONTEXT', unexpected: false });
    expect(camaraLookup(err, 'sim-swap', overrides)).toMatchObject({ status: 422, code: 'UNNECESSARY_IDENTIFIER' });
    expect(camaraLookup(err, undefined, overrides)).toMatchObject({ status: 422, code: 'UNNECESSARY_IDENTIFIER' });
    expect(legacyFailureOf(err).status).toBe(422);
  });

  test('when an override names a kind, then that kind has a row', () => {
    for (const perApi of Object.values(CAMARA_API_OVERRIDES)) {
      for (const kind of Object.keys(perApi)) expect(KINDS).toContain(kind);
    }
  });

  test('when a failure is not in the catalog, then every interface calls it unexpected and shows nothing of it', () => {
    const secret = new Error('db password hunter2 at /srv/app.js:12');
    const noRow = new RowError('NO_SUCH_ROW' as string as ErrorKind, 'hunter2');
    for (const err of [secret, noRow, 'a thrown string', undefined]) {
      const shown = [legacyFailureOf(err), graphqlFailureOf(err), camaraFailureOf(err), oauthFailureOf(err)];
      expect(shown.map((f) => f.unexpected)).toEqual([true, true, true, true]);
      expect(JSON.stringify(shown)).not.toMatch(/hunter2|app\.js/);
    }
    expect([noRow.code, noRow.httpStatus]).toEqual(['9999', 500]);
  });

  test('when a domain error wraps another, then it keeps it as its cause', () => {
    const down = new Error('connect ECONNREFUSED');
    const err = new RowError('UPSTREAM_UNAVAILABLE', 'hlr unavailable');
    const wrapped = new (class extends DomainError { readonly kind = 'UPSTREAM_UNAVAILABLE'; })('hlr unavailable', 1, { cause: down });
    expect(wrapped.cause).toBe(down);
    expect(err.cause).toBeUndefined();
    expect(legacyFailureOf(wrapped)).toEqual({ status: 503, code: '9999', desc: 'Unexpected system Error: hlr unavailable', retryAfterS: 1, replayed: false, unexpected: false });
  });
});
