import { spawn } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { defaultPartnersPath } from '../../src/kernel/repo-paths';
import { Actor } from '../../src/partners/ports/partner-admin';
import { Harness, startHarness } from '../support/harness';
import { RegistryEnv, legacyStatus, registryEnv } from '../support/partner-registry';
import { until } from '../support/until';

/*
 * The file registry (the embedded default, CONTRACT §12): the admin writes PARTNERS_FILE
 * atomically and the running service uses it at once; the file's first format stays readable
 * and is kept where nothing rotated; SIGHUP still reloads a hand-edited file.
 */

/** Reads argv[1] in a loop until stdin closes; prints how many reads, and how many did not parse. */
const READER = `
  const fs = require('node:fs');
  let reads = 0, bad = 0, open = true;
  process.stdin.on('end', () => { open = false; }).resume();
  process.stdout.write('reading\\n');
  const loop = () => {
    for (let i = 0; i < 50; i++) { reads++; try { JSON.parse(fs.readFileSync(process.argv[1], 'utf8')); } catch { bad++; } }
    if (open) setImmediate(loop); else process.stdout.write(JSON.stringify({ reads, bad }));
  };
  loop();`;

const ACTOR: Actor = { type: 'person', name: 'bob' };
const ENV_VAR = 'H30A_FILE_REGISTRY_TEST_SECRET';
const ENV_SECRET = 'secret-held-in-the-environment-0001';

describe('file registry written by the management plane', () => {
  let reg: RegistryEnv;
  let h: Harness;

  beforeAll(async () => {
    process.env[ENV_VAR] = ENV_SECRET;
    reg = await registryEnv('file');
    const doc = JSON.parse(readFileSync(reg.file, 'utf8')) as { partners: object[] };
    doc.partners.push({ name: 'from-env', apiKey: 'from-env-key', secretEnv: ENV_VAR, operations: ['kyc'] });
    writeFileSync(reg.file, JSON.stringify(doc));
    h = await startHarness({ env: reg.env });
  });
  afterAll(async () => {
    await h?.close();
    await reg?.close();
    delete process.env[ENV_VAR];
  });

  it('when partners change, then the file is replaced whole (0600, no temp file, never half-written) and in force at once', async () => {
    const admin = h.server.partnerAdmin;
    // Another process reads the file as fast as it can while the writes run: every read must parse.
    const reader = spawn(process.execPath, ['-e', READER, reg.file], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    reader.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    await until(() => out.includes('reading'), 'reader started');
    const made = await admin.create({ name: 'Filed', operations: ['kyc'] }, ACTOR);
    for (let i = 0; i < 20; i++) await admin.update('Filed', { rateLimit: { perSecond: i + 1, burst: 10 } }, ACTOR);
    reader.stdin.end();
    await new Promise((r) => reader.once('exit', r));
    const { reads, bad } = JSON.parse(out.slice(out.indexOf('{'))) as { reads: number; bad: number };
    expect(reads).toBeGreaterThan(20); // the positive control: the reader really ran across the writes
    expect(bad).toBe(0);

    expect(statSync(reg.file).mode & 0o777).toBe(0o600);
    expect(statSync(`${reg.file}.changes.jsonl`).mode & 0o777).toBe(0o600);
    expect(readdirSync(dirname(reg.file)).sort()).toEqual(['partners.json', 'partners.json.changes.jsonl']);
    expect(await legacyStatus(h.url, { apiKey: made.partner.apiKey, secret: made.secret })).toBe(200);
    expect(h.server.partners.find(made.partner.apiKey)?.rateLimit).toEqual({ perSecond: 20, burst: 10 });
    expect(readFileSync(`${reg.file}.changes.jsonl`, 'utf8').trim().split('\n')).toHaveLength(21);
  });

  it('when a secret given by an environment variable is rotated, then the file names the variable, never its value, and both sign', async () => {
    const admin = h.server.partnerAdmin;
    const rotated = await admin.rotateSecret('from-env', 600, ACTOR);
    const text = readFileSync(reg.file, 'utf8');
    expect(text).not.toContain(ENV_SECRET);
    const entry = (JSON.parse(text) as { partners: Record<string, unknown>[] }).partners.find((p) => p.name === 'from-env')!;
    expect(entry.secrets).toEqual([
      { id: rotated.id, secret: rotated.secret, createdAt: expect.any(String) as unknown, validUntil: null },
      { id: 'primary', secretEnv: ENV_VAR, createdAt: expect.any(String) as unknown, validUntil: rotated.previousValidUntil },
    ]);
    expect(entry.secretEnv).toBeUndefined();
    // Untouched partners keep the first format.
    expect((JSON.parse(text) as { partners: Record<string, unknown>[] }).partners[0]).toMatchObject({ name: 'demo-bank', secret: 'demo-secret' });
    expect(await legacyStatus(h.url, { apiKey: 'from-env-key', secret: ENV_SECRET })).toBe(200);
    expect(await legacyStatus(h.url, { apiKey: 'from-env-key', secret: rotated.secret })).toBe(200);
  });

  it('when the file is edited by hand, then a reload (SIGHUP) puts it in force, two secrets and all', async () => {
    const doc = JSON.parse(readFileSync(reg.file, 'utf8')) as { partners: Record<string, unknown>[] };
    const now = new Date().toISOString();
    doc.partners.push({
      name: 'hand-made', apiKey: 'hand-made-key', operations: ['kyc'],
      secrets: [{ id: 'b', secret: 'hand-new', createdAt: now }, { id: 'a', secret: 'hand-old', createdAt: now, validUntil: new Date(Date.now() + 60_000).toISOString() }],
    });
    writeFileSync(reg.file, JSON.stringify(doc));
    expect(await legacyStatus(h.url, { apiKey: 'hand-made-key', secret: 'hand-new' })).toBe(401);
    h.server.reloadPartners();
    expect(await legacyStatus(h.url, { apiKey: 'hand-made-key', secret: 'hand-new' })).toBe(200);
    expect(await legacyStatus(h.url, { apiKey: 'hand-made-key', secret: 'hand-old' })).toBe(200);
  });
});

describe('the demo registry (PARTNERS_FILE unset, outside production)', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness(); });
  afterAll(() => h?.close());

  it('when a change is made, then it lands in a working copy of the demo partners under AUDIT_DIR and the shipped file is untouched', async () => {
    const before = readFileSync(defaultPartnersPath(), 'utf8');
    const created = await h.server.partnerAdmin.create({ name: 'newcomer-bank', operations: ['kyc'] }, ACTOR);
    await h.server.partnerAdmin.update('demo-bank', { purpose: 'dpv:FraudPreventionAndDetection' }, ACTOR);
    expect(readFileSync(defaultPartnersPath(), 'utf8')).toBe(before);
    expect((await h.server.partnerAdmin.list()).map((p) => p.name)).toEqual(expect.arrayContaining(['demo-bank', 'newcomer-bank']));
    // In force at once: the new partner signs, and the demo partners still do.
    expect(await legacyStatus(h.url, { apiKey: created.partner.apiKey, secret: created.secret })).toBe(200);
    expect(await legacyStatus(h.url, { apiKey: 'demo-key', secret: 'demo-secret' })).toBe(200);
  });
});
