import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { Fleet } from '../../deploy/fleet/fleet';
import { formatRow, summarise } from '../support/fault-report';
import { mixed, openApiCheck } from '../support/fault-traffic';
import { camaraToken, formatStatuses, simSwapCheck, startCamaraCalls } from '../support/fleet-camara';
import { DEMO, signedQuery } from '../support/signing';
import { Sample, SteadyLoad, startSteadyLoad } from '../support/steady-load';
import { until } from '../support/until';

/*
 * The fleet of CONTRACT §10 (HAProxy, three instances, a Redis Cluster of three
 * masters with a replica each, the simulator) under steady load through the balancer, one
 * fleet event at a time. Figures: docs/fleet.md, "Fleet faults under load".
 */

jest.setTimeout(180_000);

const ROOT = join(__dirname, '..', '..');
const RATE = Number(process.env.FLEET_LOAD_RATE ?? 100);
const CHECK_MS = 500;
// A loaded 2-core CI machine stalls now and then: time bounds are generous, counts are exact.
const MARGIN_MS = 1500;
/** The instances' REDIS_WAIT_REPLICAS: the fleet's 1 unless a measurement run sets 0. */
const WAIT_REPLICAS = Number(process.env.FLEET_REDIS_WAIT_REPLICAS ?? 1);
/** Concurrent txn_id writers in the master-kill scenario. */
const WRITERS = 8;

let fleet: Fleet;
/** A CAMARA token from the balancer, for the CAMARA calls beside each scenario's load. */
let token: string;

beforeAll(async () => {
  for (const [bin, pkg] of [['haproxy', 'haproxy'], ['redis-server', 'redis-server']] as const) {
    try {
      execFileSync(bin, ['-v'], { stdio: 'pipe' });
    } catch (err) {
      throw new Error(`${bin} is not installed: the fleet tests run a real one. apt-get install -y ${pkg}`, { cause: err });
    }
  }
  fleet = await Fleet.start({
    root: ROOT, checkIntervalMs: CHECK_MS, keepDir: process.env.FLEET_KEEP_DIR === '1', env: { REDIS_WAIT_REPLICAS: String(WAIT_REPLICAS) },
  });
  if (process.env.FLEET_KEEP_DIR === '1') console.log(`fleet: logs in ${fleet.dir}`);
  token = await camaraToken(fleet.url);
});

afterAll(async () => {
  await fleet?.stop();
});

/** The legacy load through the balancer, and CAMARA SIM Swap checks beside it. */
function load(allowed: readonly number[]): SteadyLoad & { camara: ReturnType<typeof startCamaraCalls> } {
  const legacy = startSteadyLoad({
    baseUrl: fleet.url, ratePerSecond: RATE, maxRequests: RATE * 120, maxDurationMs: 120_000,
    next: mixed(), allowedStatuses: allowed, validate: openApiCheck,
  });
  return Object.assign(legacy, { camara: startCamaraCalls(fleet.url, token) });
}

function report(name: string, samples: readonly Sample[], notes: string[] = [], camara: Record<string, number> = {}): ReturnType<typeof summarise> {
  const row = summarise(name, samples, { notes: [...notes, `CAMARA (SIM Swap check): ${formatStatuses(camara)}`] });
  console.log(`fleet: ${formatRow(row)}`);
  return row;
}

/**
 * A phase lasts until the load holds n answers to requests sent from `from` on (and any further
 * condition holds), not for a guessed time: on a busy machine it takes longer, never too short.
 */
async function answeredSince(traffic: SteadyLoad, from: number, n: number, what: string, also: () => boolean = () => true): Promise<void> {
  await until(() => traffic.samples.filter((s) => s.sentAt >= from).length >= n && also(), `${n} answers ${what}`, 60_000);
}

const camaraFailed = (s: Record<string, number>) => Object.entries(s).filter(([k]) => k !== '200').reduce((n, [, c]) => n + c, 0);

describe('the fleet as one service', () => {
  it('when tokens come from the balancer, then a CAMARA call straight to each instance answers 200 (3 tokens × 3 instances)', async () => {
    // Round robin: each token is issued by another instance.
    const tokens = [await camaraToken(fleet.url), await camaraToken(fleet.url), await camaraToken(fleet.url)];
    const answers: string[] = [];
    for (const [t, tok] of tokens.entries()) {
      for (const inst of fleet.instances) answers.push(`token ${t} at ${inst.name}: ${(await simSwapCheck(inst.url, tok)).status}`);
    }
    expect(answers).toEqual(tokens.flatMap((_, t) => fleet.instances.map((i) => `token ${t} at ${i.name}: 200`)));
  });

  it('when the instances run with an admin port, then the probes and /metrics answer there and 404 on the partners\' port', async () => {
    for (const inst of fleet.instances) {
      const at = async (base: string, path: string) => (await fetch(`${base}${path}`, { signal: AbortSignal.timeout(5000) })).status;
      expect({ inst: inst.name, readyz: await at(inst.adminUrl, '/readyz'), metrics: await at(inst.adminUrl, '/metrics') }).toEqual({ inst: inst.name, readyz: 200, metrics: 200 });
      expect({ inst: inst.name, readyz: await at(inst.url, '/readyz'), metrics: await at(inst.url, '/metrics') }).toEqual({ inst: inst.name, readyz: 404, metrics: 404 });
    }
  });
});

const failed = (samples: readonly Sample[]) => samples.filter((s) => s.outcome !== 'answered' || s.status !== 200);
const describeFailures = (samples: readonly Sample[]) => failed(samples).slice(0, 5)
  .map((s) => `${s.op} ${s.outcome} ${s.status ?? s.error} ${s.desc ?? ''} ${s.problems?.join('; ') ?? ''}`);

/** One signed legacy KYC call with a given txn_id to one base URL. */
async function kyc(baseUrl: string, txnId: string, msisdn = '255712000001'): Promise<{ status: number; replayed: boolean; code: string }> {
  const res = await fetch(`${baseUrl}/eai/verify_customer/query/kyc?${signedQuery(DEMO)}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ txn_id: txnId, msisdn }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = await res.json() as { code?: string };
  return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', code: body.code ?? '' };
}

describe('the fleet under steady load through HAProxy', () => {
  it('when all three instances restart in turn (SIGTERM, back in rotation, next), then 0 requests fail', async () => {
    const traffic = load([200]);
    await answeredSince(traffic, 0, RATE / 2, 'before the restarts', () => (traffic.camara.statuses()['200'] ?? 0) > 0);
    const exits: Array<number | null> = [];
    for (const inst of fleet.instances) {
      exits.push(await fleet.stopInstance(inst.name));
      await fleet.startInstance(inst.name);
      await fleet.waitInRotation(inst.name, 15_000);
    }
    await answeredSince(traffic, Date.now(), RATE / 2, 'once all three are back', () => traffic.sent() > RATE * 3);
    await traffic.stop();
    const camara = await traffic.camara.stop();
    const row = report('rolling restart', traffic.samples, [`exit codes ${exits.join(', ')}`], camara);
    expect(exits).toEqual([0, 0, 0]);
    expect(camara['200']).toBeGreaterThan(0);
    expect(camaraFailed(camara)).toBe(0);
    expect(describeFailures(traffic.samples)).toEqual([]);
    expect(row.sent).toBeGreaterThan(RATE * 3);
  });

  it('when one instance is SIGKILLed, then only requests in flight on it fail, and HAProxy stops sending to it within its check interval', async () => {
    const traffic = load([200]);
    await answeredSince(traffic, 0, RATE / 2, 'before the kill');
    const victim = fleet.instance('i2');
    const inFlightAtKill = traffic.inFlight();
    const killedAt = Date.now();
    await victim.child.kill();
    const outMs = await fleet.waitOutOfRotation('i2', 10_000);
    await answeredSince(traffic, Date.now(), RATE, 'by the two instances left');
    await traffic.stop();
    const camara = await traffic.camara.stop();
    const lost = failed(traffic.samples);
    report('instance SIGKILLed', traffic.samples, [`in flight through the balancer at the kill: ${inFlightAtKill}`, `out of rotation after ${outMs} ms (check every ${CHECK_MS} ms)`], camara);
    // One CAMARA call at a time: at most the one in flight on the victim may fail.
    expect(camaraFailed(camara)).toBeLessThanOrEqual(1);
    // Everything that failed was on its way when the process died...
    expect(lost.length).toBeLessThanOrEqual(inFlightAtKill);
    expect(lost.filter((s) => s.sentAt > killedAt + 50)).toEqual([]);
    // ...and the balancer noticed within one check (plus a loaded machine's margin).
    expect(outMs).toBeLessThanOrEqual(CHECK_MS + MARGIN_MS);
    await fleet.startInstance('i2');
    await fleet.waitInRotation('i2', 15_000);
  });

  it('when the same txn_id goes to the three instances at once, a thousand times, then each gets exactly one fresh answer and the rest replay or 409', async () => {
    const run = `X${Date.now().toString(36)}`;
    const tallies = { fresh: 0, replayed: 0, conflict: 0, other: 0, idsWithOneFresh: 0 };
    for (let batch = 0; batch < 10; batch++) {
      await Promise.all(Array.from({ length: 100 }, async (_, k) => {
        const id = `${run}.${batch * 100 + k}`;
        const answers = await Promise.all(fleet.instances.map((i) => kyc(i.url, id)));
        let fresh = 0;
        for (const a of answers) {
          if (a.status === 200 && !a.replayed) fresh++;
          else if (a.status === 200) tallies.replayed++;
          else if (a.status === 409 && a.code === '11111') tallies.conflict++;
          else tallies.other++;
        }
        tallies.fresh += fresh;
        if (fresh === 1) tallies.idsWithOneFresh++;
      }));
    }
    console.log(`fleet: txn_id across the fleet: ${JSON.stringify(tallies)}`);
    expect(tallies).toMatchObject({ fresh: 1000, idsWithOneFresh: 1000, other: 0 });
    expect(tallies.replayed + tallies.conflict).toBe(2000);
  });

  it('when a Redis master is killed, then its replica is promoted, answers stay well-formed, and no acknowledged txn_id is lost', async () => {
    await fleet.redis.rememberReplicas();
    // Acknowledged claims: answered fresh (200) through the balancer, some well before the kill...
    const run = `M${Date.now().toString(36)}`;
    const before = Array.from({ length: 300 }, (_, k) => `${run}.${k}`);
    for (const id of before) expect((await kyc(fleet.url, id)).status).toBe(200);

    // ...and the rest up to the moment of the kill and through the failover: writers that send a
    // fresh txn_id as soon as the last is answered, on the partner whose txn_ids the killed master holds.
    const traffic = load([200, 503]);
    const writing = writeTxnIds(`${run}w`, WRITERS);
    await answeredSince(traffic, 0, RATE / 2, 'before the kill', () => writing.acknowledgedSince(0) >= WRITERS * 4);
    const killedAt = Date.now();
    const { id: masterId, port, slot } = await fleet.redis.killMasterOf(`{${DEMO.apiKey}}`);
    const promotedMs = await fleet.redis.waitPromotion(masterId, 20_000);
    // The failover window ends when every instance serves from Redis again.
    const backMs = await waitStore('redis', 30_000);
    const backAt = Date.now();
    await answeredSince(traffic, backAt, RATE / 2, 'back on Redis', () => writing.acknowledgedSince(backAt) >= WRITERS * 4);
    const written = await writing.stop();
    await traffic.stop();
    const camara = await traffic.camara.stop();

    // Every acknowledged txn_id must replay: a fresh answer is a second one, and a 409 is a
    // record lost with only its claim left (free again, and answered again, after TXN_IN_FLIGHT_TTL_S).
    const acknowledged = [...before, ...written.acknowledged.map((a) => a.id)];
    const after = await inBatches(acknowledged, 16, (id) => kyc(fleet.url, id));
    const lost = after.filter((a) => a.status === 200 && !a.replayed).length;
    const stuck = after.filter((a) => a.status === 409).length;
    const other = after.filter((a) => !(a.status === 200 && a.replayed) && a.status !== 409).length;
    const nearKill = written.acknowledged.filter((a) => Math.abs(a.at - killedAt) < 1000).length;
    const line = `WAIT ${WAIT_REPLICAS}: acknowledged ${acknowledged.length} (${nearKill} within 1 s of the kill), lost ${lost}, stuck in flight ${stuck}`;
    console.log(`fleet: master of slot ${slot} killed; ${line}; writers saw ${JSON.stringify(written.statuses)}`);
    report('Redis master killed', traffic.samples, [
      `replica promoted after ${promotedMs} ms; every instance back on Redis ${backMs} ms later`, line,
    ], camara);
    expect(traffic.samples.filter((s) => s.outcome !== 'answered')).toEqual([]);
    expect(camara['0'] ?? 0).toBe(0);
    expect(nearKill).toBeGreaterThan(0);
    expect(other).toBe(0);
    // With WAIT (the fleet's setting) nothing is lost; FLEET_REDIS_WAIT_REPLICAS=0 measures what it saves.
    if (WAIT_REPLICAS > 0) expect({ lost, stuck }).toEqual({ lost: 0, stuck: 0 });

    await fleet.redis.restart(port);
    await fleet.redis.waitHealthy(30_000);
  });

  it('when the whole Redis Cluster goes and comes back, then the fleet is degraded, then back on Redis, with nothing wrong in between', async () => {
    const traffic = load([200, 503]);
    await answeredSince(traffic, 0, RATE / 2, 'before the cluster goes');
    await fleet.redis.killAll();
    const degraded = await waitStore('degraded', 10_000);
    await answeredSince(traffic, Date.now(), RATE, 'while degraded');
    await fleet.redis.restartAll();
    await fleet.redis.waitHealthy(30_000);
    const back = await waitStore('redis', 30_000);
    await answeredSince(traffic, Date.now(), RATE / 2, 'back on Redis');
    await traffic.stop();
    const camara = await traffic.camara.stop();
    report('Redis Cluster gone and back', traffic.samples, [`degraded after ${degraded} ms`, `back on Redis ${back} ms after the cluster was healthy`], camara);
    expect(traffic.samples.filter((s) => s.outcome !== 'answered')).toEqual([]);
    expect(camara['0'] ?? 0).toBe(0);
  });
});

/**
 * `writers` loops through the balancer, each sending a fresh txn_id as soon as its last was
 * answered; stop() returns the ids answered fresh (acknowledged) with when, and every status seen.
 * They stop by themselves after 90 s, so a scenario that throws before stop() cannot leave them
 * running (and Jest waiting) after the fleet is gone.
 */
function writeTxnIds(prefix: string, writers: number) {
  let running = true;
  const deadline = Date.now() + 90_000;
  let seq = 0;
  const acknowledged: Array<{ id: string; at: number }> = [];
  const statuses: Record<string, number> = {};
  const loops = Array.from({ length: writers }, async () => {
    while (running && Date.now() < deadline) {
      const id = `${prefix}.${seq++}`;
      const a = await kyc(fleet.url, id).catch(() => ({ status: 0, replayed: false, code: '' }));
      statuses[a.status] = (statuses[a.status] ?? 0) + 1;
      if (a.status === 200 && !a.replayed) acknowledged.push({ id, at: Date.now() });
    }
  });
  return {
    /** Ids answered fresh at or after `from` so far. */
    acknowledgedSince: (from: number) => acknowledged.filter((a) => a.at >= from).length,
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return { acknowledged, statuses };
    },
  };
}

/** fn over items, at most `width` at a time, results in order. */
async function inBatches<T, R>(items: readonly T[], width: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...await Promise.all(items.slice(i, i + width).map(fn)));
  return out;
}

/** Every instance's /readyz reports this store mode; returns the ms it took. */
async function waitStore(mode: string, timeoutMs: number): Promise<number> {
  const start = Date.now();
  let modes: Array<{ store?: string }> = [];
  await until(async () => {
    modes = await Promise.all(fleet.instances.map((i) => fetch(`${i.adminUrl}/readyz`).then((r) => r.json() as Promise<{ store?: string }>, () => ({ store: 'down' }))));
    return modes.every((m) => m.store === mode);
  }, `every instance's store ${mode}`, timeoutMs, 100).catch((err: Error) => { throw new Error(`${err.message} (last: ${JSON.stringify(modes)})`); });
  return Date.now() - start;
}
