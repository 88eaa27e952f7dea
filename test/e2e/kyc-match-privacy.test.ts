import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { RedisProcess, startRedis } from '../../tools/process-kit/redis-server';
import { CamaraHarness, startCamaraHarness } from '../support/camara-harness';
import { captureLogs } from '../support/log-capture';
import { KYC_MATCH, KYC_MATCH_SCOPE, subscriberWith } from '../support/kyc-match-fixtures';

/*
 * CONTRACT §11: the identity record is never cached, logged, measured, audited, put in an error
 * or echoed. One run with values found nowhere else (record and request alike), through every
 * path that could leak them (answers, refusals, bad input, a customer-records failure), then
 * every place the service writes to is searched for them: the log lines, /metrics, every Redis
 * key and value, and the audit files.
 */

jest.setTimeout(30_000);

const RECORD = {
  idDocument: 'QZX998877WV', idDocumentType: 'passport', idDocumentExpiryDate: '2039-03-17',
  name: 'Zyxquorth Plimbravet Oxtangle', givenName: 'Zyxquorth', familyName: 'Oxtangle', middleNames: 'Plimbravet',
  nameKanaZenkaku: 'ズィクォース', familyNameAtBirth: 'Vrembleforth', address: 'Quillmarsh Lane 731', streetName: 'Quillmarsh Lane',
  streetNumber: '731', postalCode: 'QM7319', region: 'Thrumbleshire', locality: 'Glimmerfen', country: 'TZ',
  houseNumberExtension: 'Annex-QQ', birthdate: '1911-11-11', email: 'zyxquorth.oxtangle@plimbravet.example', gender: 'OTHER',
  cityOfBirth: 'Wobblecombe', countryOfBirth: 'NZ', nationality: 'FJ',
};
/** What callers send: near the record (scores are computed) and far from it. */
const SENT = {
  name: 'Zyxquorth Plimbravet Oxtanglf', givenName: 'Zyxquorthh', familyName: 'Oxtangle', email: 'zyxquorth.oxtangle@plimbravet.example',
  birthdate: '1912-12-12', address: 'Quillmarsh Lane 732', cityOfBirth: 'Wobblecombz', idDocument: 'QZX998877WX', postalCode: 'QM7318',
};
/** Values long and odd enough that no other text holds them by chance (dates and short codes aside). */
const needles = (): string[] => [...new Set([...Object.values(RECORD), ...Object.values(SENT)])]
  .filter((v) => v.length >= 6 && !/^(passport|TZ|OTHER)$/.test(v))
  .flatMap((v) => [v, v.toLowerCase(), v.toUpperCase(), v.normalize('NFKC')]);

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

async function redisDump(url: string, prefix: string): Promise<string> {
  const client = new Redis(url);
  try {
    const out: string[] = [];
    for (const key of await client.keys(`${prefix}*`)) {
      out.push(key);
      const type = await client.type(key);
      if (type === 'string') out.push(String(await client.getBuffer(key)));
      else if (type === 'hash') out.push(JSON.stringify(await client.hgetall(key)));
      else if (type === 'list') out.push(JSON.stringify(await client.lrange(key, 0, -1)));
      else if (type === 'set') out.push(JSON.stringify(await client.smembers(key)));
      else if (type === 'zset') out.push(JSON.stringify(await client.zrange(key, 0, -1)));
      else if (type === 'stream') out.push(JSON.stringify(await client.xrange(key, '-', '+')));
    }
    return out.join('\n');
  } finally {
    client.disconnect();
  }
}

describe('KYC Match privacy: the identity record leaves no trace', () => {
  let redis: RedisProcess;
  let c: CamaraHarness;
  const logs = captureLogs('trace');
  const auditDir = mkdtempSync(join(tmpdir(), 'vc-kyc-match-audit-'));
  const prefix = `kmp${Date.now().toString(36)}:`;

  beforeAll(async () => {
    redis = await startRedis();
    c = await startCamaraHarness({ logger: logs.logger, env: { REDIS_URL: redis.url, REDIS_KEY_PREFIX: prefix, AUDIT_DIR: auditDir, LOG_LEVEL: 'trace' } });
  });
  afterAll(async () => {
    await c?.close();
    await redis?.stop();
    rmSync(auditDir, { recursive: true, force: true });
  });

  it('when matches, age verifications, refusals, bad input and a customer-records failure have run, then no record or request value is in the logs, metrics, Redis or audit', async () => {
    const phone = subscriberWith(c, RECORD, '25571240');
    const token = await c.tokens.twoLegged({ scope: KYC_MATCH_SCOPE });
    const call = (body: unknown) => c.call(KYC_MATCH, body, { token });
    const texts: string[] = [];

    // Every attribute, matching and not: answers hold results and scores only.
    for (const body of [{ phoneNumber: phone, ...RECORD }, { phoneNumber: phone, ...SENT }]) {
      const r = await call(body);
      expect(r.status).toBe(200);
      texts.push(r.text);
    }
    // Bad input carrying the values: the errors name the property, never the value.
    for (const body of [{ phoneNumber: phone, birthdate: RECORD.name }, { phoneNumber: phone, gender: RECORD.familyName },
      { phoneNumber: phone, email: RECORD.address }, { phoneNumber: phone, country: RECORD.region }]) {
      const r = await call(body);
      expect(r.status).toBe(400);
      texts.push(r.text);
    }
    // Customer records failing: the failure is logged, the record is not.
    c.h.sim.setFault('crm', { errorRate: 1 });
    const failed = await call({ phoneNumber: phone, ...SENT });
    expect(failed.status).toBe(503);
    texts.push(failed.text);
    c.h.sim.resetFaults();
    expect((await call({ phoneNumber: phone, givenName: RECORD.givenName })).body).toEqual({ givenNameMatch: 'true' });
    // KYC Age Verification follows the same rules (CONTRACT §13): its identity attributes, near and far, and one bad value.
    const ageToken = await c.tokens.twoLegged({ scope: 'kyc-age-verification:verify' });
    const ageFields = ['idDocument', 'name', 'givenName', 'familyName', 'middleNames', 'familyNameAtBirth', 'birthdate', 'email'] as const;
    const subset = (from: Record<string, string>) => Object.fromEntries(ageFields.filter((f) => from[f] !== undefined).map((f) => [f, from[f]]));
    for (const attributes of [subset(RECORD), subset(SENT)]) {
      const r = await c.call('/kyc-age-verification/v0.2/verify', { phoneNumber: phone, ageThreshold: 18, ...attributes }, { token: ageToken });
      expect(r.status).toBe(200);
      texts.push(r.text);
    }
    const badAge = await c.call('/kyc-age-verification/v0.2/verify', { phoneNumber: phone, ageThreshold: 18, email: RECORD.address }, { token: ageToken });
    expect(badAge.status).toBe(400);
    texts.push(badAge.text);

    await c.h.server.audit.flush();
    const metrics = await (await fetch(`${c.url}/metrics`)).text();
    const auditText = filesUnder(auditDir).map((f) => readFileSync(f, 'utf8')).join('\n');
    const places: Record<string, string> = {
      answers: texts.join('\n'), logs: logs.raw().join(''), metrics, redis: await redisDump(redis.url, prefix), audit: auditText,
    };
    // The search can fail: the places are not empty, and the values are what the simulator serves.
    expect(logs.raw().length).toBeGreaterThan(5);
    expect(places.redis.length).toBeGreaterThan(0);
    expect(auditText).toContain('"operation":"kyc_match.match"');
    expect(auditText).toContain('"operation":"age_verification.verify"');
    expect(await (await fetch(`${c.h.simUrl}/crm/subscribers/${phone.slice(1)}/identity`)).text()).toContain(RECORD.name);
    const found = Object.entries(places).flatMap(([place, text]) => needles().filter((n) => text.includes(n)).map((n) => `${place}: ${n}`));
    expect(found).toEqual([]);
  });

  it('when a match is answered, then its audit record names the attributes compared and the counts, not the values', async () => {
    const phone = subscriberWith(c, { givenName: 'Quendolyn', birthdate: '1950-01-01' }, '25571241');
    const token = await c.tokens.twoLegged({ scope: KYC_MATCH_SCOPE });
    const r = await c.call(KYC_MATCH, { phoneNumber: phone, givenName: 'Quendolyn', birthdate: '1950-01-02', email: 'q@example.com' }, { token });
    expect(r.body).toEqual({ givenNameMatch: 'true', birthdateMatch: 'false', emailMatch: 'not_available' });
    await c.h.server.audit.flush();
    // AUDIT_DIR also holds the working copy of the demo registry (partners.json): not audit records.
    const records = filesUnder(auditDir).filter((f) => !/\/partners\.json(\.changes\.jsonl)?$/.test(f))
      .flatMap((f) => readFileSync(f, 'utf8').split('\n').filter(Boolean))
      .map((l) => JSON.parse(l) as Record<string, unknown>).filter((rec) => rec.msisdn === phone.slice(1));
    // The month file and the writer's journal may both hold a record: one id, one record.
    const byId = [...new Map(records.map((rec) => [rec.id, rec])).values()];
    expect(byId).toEqual([expect.objectContaining({
      operation: 'kyc_match.match', interface: 'camara', code: '00000', http_status: 200,
      match: { compared: ['givenName', 'birthdate', 'email'], true: 1, false: 1, not_available: 1 },
    })]);
    expect(JSON.stringify(records)).not.toContain('Quendolyn');
  });
});
