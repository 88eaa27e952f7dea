import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileAuditReader } from '../../src/audit/adapters/file-audit-reader';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { gql } from '../support/graphql-client';

/*
 * The signal APIs in the books (CONTRACT §9, §11): every answer leaves one audit record under
 * its registry operation, followed for a CAMARA call by the CAMARA operation (docs/audit.md,
 * "Operation names"), so the usage report counts it per partner and operation and tells an
 * API's operations apart; the request metrics label it by the registry operation.
 */

describe('signal APIs: audit, usage and metrics', () => {
  let c: CamaraHarness;
  let auditDir: string;
  beforeAll(async () => {
    auditDir = mkdtempSync(join(tmpdir(), 'vc-signals-audit-'));
    c = await startCamaraHarness({ env: { AUDIT_DIR: auditDir } });
  });
  afterAll(async () => {
    await c?.close();
    rmSync(auditDir, { recursive: true, force: true });
  });

  it('when each signal API answers, then usage counts it under its registry and CAMARA operation and the metrics label it by the registry operation', async () => {
    const token = await c.tokens.twoLegged({});
    const call = (path: string, body: object) => c.call(path, body, { token });
    expect((await call('/device-swap/v1/check', { phoneNumber: '+255712000011' })).status).toBe(200);
    expect((await call('/device-swap/v1/retrieve-date', { phoneNumber: '+255712000999' })).status).toBe(404);
    expect((await call('/call-forwarding-signal/v0.4/call-forwardings', { phoneNumber: '+255712000013' })).status).toBe(200);
    expect((await call('/call-forwarding-signal/v0.4/unconditional-call-forwardings', { phoneNumber: '+255712000013' })).status).toBe(200);
    expect((await call('/number-recycling/v0.2/check', { phoneNumber: '+255712000015', specifiedDate: '2024-01-01' })).status).toBe(200);
    expect((await gql(c.h, '{ signals(msisdns: ["255712000012"]) { deviceSwap { latestDeviceChangeAt } callForwarding { unconditional } } }')).status).toBe(200);
    await c.h.server.audit.flush();

    const month = new Date().toISOString().slice(0, 7);
    const rows = (await new FileAuditReader(auditDir).usage(month)).map((r) => [r.partner, r.operation, r.code, r.httpStatus, r.count]);
    expect(rows).toEqual([
      ['demo-bank', 'call_forwarding', '00000', 200, 1],
      ['demo-bank', 'call_forwarding.call-forwardings', '00000', 200, 1],
      ['demo-bank', 'call_forwarding.unconditional-call-forwardings', '00000', 200, 1],
      ['demo-bank', 'device_swap', '00000', 200, 1],
      ['demo-bank', 'device_swap.check', '00000', 200, 1],
      ['demo-bank', 'device_swap.retrieve-date', '11111', 404, 1],
      ['demo-bank', 'number_recycling.check', '00000', 200, 1],
    ]);

    const text = await (await fetch(`${c.url}/metrics`)).text();
    const count = (labels: string) => Number(new RegExp(`^verify_requests_total\\{${labels}\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
    expect(count('operation="device_swap",interface="camara",code="00000",status="200"')).toBe(1);
    expect(count('operation="device_swap",interface="camara",code="11111",status="404"')).toBe(1);
    expect(count('operation="call_forwarding",interface="camara",code="00000",status="200"')).toBe(2);
    expect(count('operation="number_recycling",interface="camara",code="00000",status="200"')).toBe(1);
  });
});
