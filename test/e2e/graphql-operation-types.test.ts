import { CapturedLogs, captureLogs } from '../support/log-capture';
import { Harness, startHarness } from '../support/harness';
import { DEMO, signedQuery } from '../support/signing';

/*
 * The schema has only Query. A mutation or subscription is the caller's
 * mistake: 11111 with HTTP 400, logged as a client error, counted as a 11111, never as a 9999
 * (which would feed the error-budget burn alert).
 */

interface GqlBody {
  data?: unknown;
  errors?: { message: string; extensions: { code: string; desc: string } }[];
}

async function gql(h: Harness, query: string, operationName?: string): Promise<{ status: number; body: GqlBody }> {
  const res = await fetch(`${h.url}/graphql?${signedQuery(DEMO)}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, operationName }),
  });
  return { status: res.status, body: JSON.parse(await res.text()) as GqlBody };
}

async function requestCounts(h: Harness): Promise<Map<string, number>> {
  const text = await (await fetch(`${h.url}/metrics`)).text();
  const out = new Map<string, number>();
  for (const m of text.matchAll(/^verify_requests_total\{operation="none",interface="graphql",code="(\d+)",status="(\d+)"\} (\d+)$/gm)) {
    out.set(`${m[1]} ${m[2]}`, Number(m[3]));
  }
  return out;
}

describe('GraphQL operation types other than query (the schema has only queries)', () => {
  let h: Harness;
  let logs: CapturedLogs;
  beforeAll(async () => {
    logs = captureLogs('info');
    h = await startHarness({ logger: logs.logger });
  });
  afterAll(() => h.close());

  it.each([
    ['mutation', 'mutation { kyc(msisdn: "255712000001") { isValid } }'],
    ['subscription', 'subscription { kyc(msisdn: "255712000001") { isValid } }'],
    ['named mutation', 'mutation M { __typename }'],
  ])('a %s is 11111 with HTTP 400, a client error in logs and metrics', async (_name, query) => {
    const before = await requestCounts(h);
    const logged = logs.lines().length;
    const r = await gql(h, query);
    expect(r.status).toBe(400);
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors).toHaveLength(1);
    expect(r.body.errors?.[0]?.extensions).toEqual({
      code: '11111', desc: 'Error Process: only query operations are supported',
    });
    expect(r.body.errors?.[0]?.message).toBe('Error Process: only query operations are supported');
    expect(JSON.stringify(r.body)).not.toMatch(/stack|9999/);

    const after = await requestCounts(h);
    expect((after.get('11111 400') ?? 0) - (before.get('11111 400') ?? 0)).toBe(1);
    const nines = [...after].filter(([k]) => k.startsWith('9999')).reduce((n, [k, v]) => n + v - (before.get(k) ?? 0), 0);
    expect(nines).toBe(0);

    const lines = logs.lines().slice(logged);
    // One request line at info, nothing at warn or above (no "unexpected GraphQL error" with a stack).
    expect(lines.filter((l) => ['warn', 'error', 'fatal'].includes(l.level as string))).toEqual([]);
    const request = lines.filter((l) => l.msg === 'request');
    expect(request).toHaveLength(1);
    expect(request[0]).toMatchObject({ level: 'info', interface: 'graphql', code: '11111', status: 400 });
  });

  it('when a document holds a mutation, then it is refused as a whole, even when the operation chosen is its query', async () => {
    const r = await gql(h, 'query Q { kyc(msisdn: "255712000001") { isValid } } mutation M { __typename }', 'Q');
    expect(r.status).toBe(400);
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors?.[0]?.extensions.code).toBe('11111');
  });

  it('when the document is a query, then it still works', async () => {
    const r = await gql(h, 'query { kyc(msisdn: "255712000001") { isValid } }');
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ data: { kyc: { isValid: true } } });
  });
});
