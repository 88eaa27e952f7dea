import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { gql } from '../support/graphql-client';
import { txnId } from '../support/harness';
import { captureLogs } from '../support/log-capture';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const CHECK = '/sim-swap/v2/check';

/** docs/openapi.yaml's Correlator pattern: the legacy routes must apply exactly this one. */
function documentedPattern(): RegExp {
  const doc = load(readFileSync(join(__dirname, '../../docs/openapi.yaml'), 'utf8')) as { components: { schemas: { Correlator: { pattern: string } } } };
  return new RegExp(doc.components.schemas.Correlator.pattern);
}

describe('x-correlator (CONTRACT §1.5) on every interface', () => {
  const logs = captureLogs('info');
  let c: CamaraHarness;
  beforeAll(async () => { c = await startCamaraHarness({ logger: logs.logger }); });
  afterAll(() => c?.close());

  const legacy = (correlator: string) => c.h.post('kyc', { txn_id: txnId('c'), msisdn: '255712000001' }, { headers: { 'x-correlator': correlator } });

  it('when the legacy x-correlator is empty, then it is echoed empty (the pattern allows length 0) and the request answered', async () => {
    const r = await legacy('');
    expect(r.status).toBe(200);
    expect(r.headers.get('x-correlator')).toBe('');
  });

  it('when the CAMARA x-correlator is empty, then it is echoed empty and the request answered', async () => {
    const r = await c.call(CHECK, { phoneNumber: '+255712000001' }, { headers: { 'x-correlator': '' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-correlator')).toBe('');
  });

  it('when the GraphQL x-correlator is empty, then it is echoed empty and the request answered', async () => {
    const r = await gql(c.h, '{ kyc(msisdn: "255712000001") { isValid } }', undefined, { headers: { 'x-correlator': '' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('x-correlator')).toBe('');
  });

  it('when a value is empty, then its log line carries a generated correlator and correlatorSent: ""', async () => {
    const r = await legacy('');
    expect(r.status).toBe(200);
    const line = await waitFor(() => logs.lines().find((l) => l.msg === 'request' && l.correlatorSent === '' && l.path === '/eai/verify_customer/query/kyc'));
    expect(line.correlator).toMatch(UUID);
  });

  it('when legacy values match docs/openapi.yaml\'s Correlator pattern, then exactly those are echoed; the others are replaced, never refused', async () => {
    const pattern = documentedPattern();
    const values = ['', 'a', 'x'.repeat(256), 'x'.repeat(257), 'corr:1;a.b/<c>{d}_e-f', 'a b', 'a,b', '<script>', 'é', 'a|b', 'a"b'];
    for (const value of values) {
      const r = await legacy(value);
      expect({ value, status: r.status }).toEqual({ value, status: 200 });
      const echoed = r.headers.get('x-correlator');
      if (pattern.test(value)) expect({ value, echoed }).toEqual({ value, echoed: value });
      else expect({ value, uuid: UUID.test(echoed ?? '') }).toEqual({ value, uuid: true });
    }
  });
});

async function waitFor<T>(find: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const found = find();
    if (found !== undefined) return found;
    if (Date.now() > until) throw new Error('timed out waiting for the log line');
    await new Promise((r) => setImmediate(r));
  }
}
