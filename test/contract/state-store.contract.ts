import { randomBytes } from 'node:crypto';
import { Clock } from '../../src/kernel/clock';
import { StateStore, StoreMode } from '../../src/verification/ports/state-store';
import { describeQuotaCounterContract } from './quota-counter.contract';
import { until } from '../support/until';

/** Real time, which can be frozen and moved: TTLs run on real time in Redis, refills on this clock. */
export class TestClock implements Clock {
  private frozenAt: number | undefined;

  nowMs(): number {
    return this.frozenAt ?? Date.now();
  }

  freeze(): void {
    this.frozenAt = Date.now();
  }

  advance(ms: number): void {
    if (this.frozenAt === undefined) throw new Error('freeze the clock before moving it');
    this.frozenAt += ms;
  }

  thaw(): void {
    this.frozenAt = undefined;
  }
}

export interface StoreUnderTest {
  store: StateStore;
  /** The mode the store must report throughout: a Redis store that fell back to memory fails. */
  mode: StoreMode;
  close(): Promise<void>;
}

/** Polls until the store reports the mode (a Redis store connects in the background). */
export async function waitForMode(store: StateStore, mode: StoreMode, timeoutMs = 5000): Promise<void> {
  await until(() => store.mode() === mode, `store mode ${mode}`, timeoutMs, 20);
}

/** The shortest TTL the tests give an entry that must expire: every store keeps TTLs to the millisecond. */
const SHORT_TTL_S = 0.05;

/**
 * The one behaviour every StateStore must have (ports/state-store.ts), run against the
 * in-memory store, a standalone Redis and a Redis Cluster alike.
 */
export function describeStateStoreContract(name: string, open: (clock: Clock) => Promise<StoreUnderTest>): void {
  describe(`state store contract: ${name}`, () => {
    const clock = new TestClock();
    let subject: StoreUnderTest;
    let store: StateStore;
    // Fresh keys per test: the stores live for the whole suite.
    let ns: string;
    const k = (key: string) => `${ns}${key}`;
    const entryOf = async (key: string) => (await store.cache.get(key)).entry;
    const versionOf = async (key: string) => (await store.cache.get(key)).version;
    /**
     * Lets SHORT_TTL_S pass for everything stored before the call, with no guessed sleep: the
     * memory store keeps time by the (frozen) test clock, moved here; Redis by its own, so a
     * witness stored last with the same TTL is awaited until it reads absent.
     */
    const outliveShortTtl = async () => {
      const witness = k('witness');
      expect(await store.cache.set(witness, { value: 'w', storedAtMs: 0 }, SHORT_TTL_S, null)).toBe(true);
      clock.advance(SHORT_TTL_S * 1000 + 1);
      await until(async () => (await entryOf(witness)) === null, 'a witness entry past its TTL', 5000, 5);
    };

    beforeAll(async () => {
      subject = await open(clock);
      store = subject.store;
    });
    afterAll(() => subject?.close());
    beforeEach(() => {
      ns = `${randomBytes(4).toString('hex')}-`;
    });
    afterEach(() => {
      clock.thaw();
      expect(store.mode()).toBe(subject.mode);
    });

    describe('cache', () => {
      it('reads a key never set as absent', async () => {
        expect(await entryOf(k('kyc:255712000001'))).toBeNull();
      });

      it('reads an entry back with its value and the moment it was stored, whatever the value holds', async () => {
        const values = ['active/prepaid', '-', '', 'a|b:c|', '{"x":"ünï ☎"}\n\t'];
        await Promise.all(values.map((value, i) => store.cache.set(k(`v${i}`), { value, storedAtMs: 1_763_622_900_123 + i }, 60, null)));
        for (const [i, value] of values.entries()) {
          expect(await entryOf(k(`v${i}`))).toEqual({ value, storedAtMs: 1_763_622_900_123 + i });
        }
      });

      it('replaces an entry when its key is set again from the version last read', async () => {
        expect(await store.cache.set(k('sim:255712000006'), { value: 'n', storedAtMs: 1 }, 60, null)).toBe(true);
        const read = await store.cache.get(k('sim:255712000006'));
        expect(read.entry).toEqual({ value: 'n', storedAtMs: 1 });
        expect(await store.cache.set(k('sim:255712000006'), { value: '1763622900000', storedAtMs: 2 }, 60, read.version)).toBe(true);
        expect(await entryOf(k('sim:255712000006'))).toEqual({ value: '1763622900000', storedAtMs: 2 });
      });

      it('refuses a write based on a read the key has changed since: another write, or a stale read of absence', async () => {
        const key = k('kyc:255712000007');
        const absent = await versionOf(key);
        expect(absent).toBeNull();
        expect(await store.cache.set(key, { value: 'first', storedAtMs: 1 }, 60, absent)).toBe(true);
        const first = await versionOf(key);
        expect(first).not.toBeNull();
        // A second lookup that also started from "absent" does not overwrite the first one's answer.
        expect(await store.cache.set(key, { value: 'late', storedAtMs: 2 }, 60, absent)).toBe(false);
        expect(await store.cache.set(key, { value: 'second', storedAtMs: 3 }, 60, first)).toBe(true);
        expect(await store.cache.set(key, { value: 'stale', storedAtMs: 4 }, 60, first)).toBe(false);
        expect(await entryOf(key)).toEqual({ value: 'second', storedAtMs: 3 });
      });

      it('after an eviction refuses every write based on a read from before it, and takes one based on a read after it', async () => {
        const cached = k('sim:255712000001');
        const never = k('sim:255712000002');
        await store.cache.set(cached, { value: 'n', storedAtMs: 1 }, 60, null);
        const beforeCached = await versionOf(cached);
        const beforeNever = await versionOf(never);
        await store.cache.delete([cached, never]);
        // The lookups that started before the swap come back with pre-swap answers: none lands.
        expect(await store.cache.set(cached, { value: 'n', storedAtMs: 2 }, 60, beforeCached)).toBe(false);
        expect(await store.cache.set(never, { value: 'n', storedAtMs: 2 }, 60, beforeNever)).toBe(false);
        expect(await entryOf(cached)).toBeNull();
        expect(await entryOf(never)).toBeNull();
        // A read after the eviction sees a new version, and its lookup's answer is cached.
        const after = await store.cache.get(never);
        expect(after.entry).toBeNull();
        expect(typeof after.version).toBe('string');
        expect(after.version).not.toBe(beforeNever);
        expect(await store.cache.set(never, { value: '1763622900000', storedAtMs: 3 }, 60, after.version)).toBe(true);
        expect(await entryOf(never)).toEqual({ value: '1763622900000', storedAtMs: 3 });
      });

      it('still refuses a pre-eviction write after the refill that followed the eviction has expired', async () => {
        clock.freeze();
        const key = k('sim:255712000008');
        const before = await versionOf(key);
        await store.cache.delete([key]);
        const after = await versionOf(key);
        expect(await store.cache.set(key, { value: 'n', storedAtMs: 1 }, SHORT_TTL_S, after)).toBe(true);
        // Past the refill's TTL (a store may keep the key longer: readers judge age by storedAtMs).
        await outliveShortTtl();
        expect(await store.cache.set(key, { value: 'n', storedAtMs: 2 }, 60, before)).toBe(false);
        expect((await entryOf(key))?.storedAtMs).not.toBe(2);
      });

      it('deletes exactly the listed keys, absent ones included, and leaves other numbers alone', async () => {
        const entry = { value: 'active/prepaid', storedAtMs: 5 };
        for (const key of ['kyc:255712000001', 'sim:255712000001', 'kyc:255712000002', 'sim:255712000002']) await store.cache.set(k(key), entry, 60, null);
        await store.cache.delete([k('kyc:255712000001'), k('sim:255712000001'), k('kyc:255799999999')]);
        expect(await entryOf(k('kyc:255712000001'))).toBeNull();
        expect(await entryOf(k('sim:255712000001'))).toBeNull();
        expect(await entryOf(k('kyc:255712000002'))).toEqual(entry);
        expect(await entryOf(k('sim:255712000002'))).toEqual(entry);
        await expect(store.cache.delete([])).resolves.toBeUndefined();
      });

      it('does not store an entry with a TTL of zero', async () => {
        expect(await store.cache.set(k('kyc:0'), { value: 'x', storedAtMs: 1 }, 0, null)).toBe(false);
        expect(await entryOf(k('kyc:0'))).toBeNull();
      });
    });

    it('forgets cache entries and unfinished claims after their TTL, while a completed claim lasts its own', async () => {
      clock.freeze();
      await store.cache.set(k('kyc:1'), { value: 'x', storedAtMs: 1 }, SHORT_TTL_S, null);
      await store.cache.set(k('kyc:2'), { value: 'y', storedAtMs: 1 }, 30, null);
      expect(await store.txns.claim(k('p:short'), 'kyc|1|', SHORT_TTL_S)).toEqual({ status: 'claimed' });
      expect(await store.txns.claim(k('p:done'), 'kyc|2|', SHORT_TTL_S)).toEqual({ status: 'claimed' });
      await store.txns.complete(k('p:done'), 'kyc|2|', '{"r":2}', 30);
      await outliveShortTtl();
      expect(await entryOf(k('kyc:1'))).toBeNull();
      expect(await entryOf(k('kyc:2'))).toEqual({ value: 'y', storedAtMs: 1 });
      expect(await store.txns.claim(k('p:short'), 'sim_swap|3|', 1)).toEqual({ status: 'claimed' });
      expect(await store.txns.claim(k('p:done'), 'kyc|2|', 1)).toEqual({ status: 'done', fingerprint: 'kyc|2|', outcome: '{"r":2}' });
    });

    describe('txn_id records', () => {
      it('lets the first claim win and shows later claims the holder in flight', async () => {
        expect(await store.txns.claim(k('p:t1'), 'kyc|0712000001|', 60)).toEqual({ status: 'claimed' });
        expect(await store.txns.claim(k('p:t1'), 'kyc|0712000001|', 60)).toEqual({ status: 'in-flight', fingerprint: 'kyc|0712000001|' });
        expect(await store.txns.claim(k('p:t1'), 'sim_swap|0712000001|24', 60)).toEqual({ status: 'in-flight', fingerprint: 'kyc|0712000001|' });
        expect(await store.txns.claim(k('q:t1'), 'sim_swap|0712000001|24', 60)).toEqual({ status: 'claimed' });
      });

      it('gives a txn_id to exactly one of many simultaneous claims', async () => {
        const claims = await Promise.all(Array.from({ length: 40 }, (_, i) => store.txns.claim(k('p:race'), `kyc|${i}|`, 60)));
        const winners = claims.filter((c) => c.status === 'claimed');
        expect(winners).toHaveLength(1);
        const winner = `kyc|${claims.indexOf(winners[0])}|`;
        for (const c of claims) if (c.status !== 'claimed') expect(c).toEqual({ status: 'in-flight', fingerprint: winner });
      });

      it('replays the stored outcome of a completed txn_id with its fingerprint', async () => {
        const outcome = JSON.stringify({ r: { operation: 'kyc', kyc: { msisdn: '+255 712', isValid: true } }, note: 'd7:c|☎' });
        await store.txns.claim(k('p:t2'), 'kyc|+255712000001|', 60);
        await store.txns.complete(k('p:t2'), 'kyc|+255712000001|', outcome, 600);
        expect(await store.txns.claim(k('p:t2'), 'kyc|+255712000001|', 60)).toEqual({ status: 'done', fingerprint: 'kyc|+255712000001|', outcome });
        expect(await store.txns.claim(k('p:t2'), 'kyc|255712000001|', 60)).toEqual({ status: 'done', fingerprint: 'kyc|+255712000001|', outcome });
      });

      it('ignores a completion by another fingerprint, even one the holder is a prefix of', async () => {
        await store.txns.claim(k('p:t3'), 'kyc|0712', 60);
        await store.txns.complete(k('p:t3'), 'kyc|07123', 'other', 600);
        expect(await store.txns.claim(k('p:t3'), 'x', 60)).toEqual({ status: 'in-flight', fingerprint: 'kyc|0712' });
        await store.txns.complete(k('p:t3'), 'kyc|0712', 'mine', 600);
        await store.txns.complete(k('p:t3'), 'kyc|071', 'shorter', 600);
        expect(await store.txns.claim(k('p:t3'), 'x', 60)).toEqual({ status: 'done', fingerprint: 'kyc|0712', outcome: 'mine' });
      });

      it('frees an unfinished claim on release so the txn_id can be claimed again', async () => {
        await store.txns.claim(k('p:t4'), 'sim_swap|0712000007|', 60);
        await store.txns.release(k('p:t4'), 'sim_swap|0712000007|');
        expect(await store.txns.claim(k('p:t4'), 'kyc|0712000007|', 60)).toEqual({ status: 'claimed' });
      });

      it('keeps the txn_id used when released by another fingerprint or after completion', async () => {
        await store.txns.claim(k('p:t5'), 'kyc|1|', 60);
        await store.txns.release(k('p:t5'), 'kyc|1|2');
        await store.txns.release(k('p:t5'), 'kyc|');
        expect(await store.txns.claim(k('p:t5'), 'kyc|1|', 60)).toEqual({ status: 'in-flight', fingerprint: 'kyc|1|' });
        await store.txns.complete(k('p:t5'), 'kyc|1|', 'done', 600);
        await store.txns.release(k('p:t5'), 'kyc|1|');
        expect(await store.txns.claim(k('p:t5'), 'kyc|1|', 60)).toEqual({ status: 'done', fingerprint: 'kyc|1|', outcome: 'done' });
      });

      it('records the outcome of a txn_id whose claim has already expired', async () => {
        await store.txns.complete(k('p:t6'), 'kyc|9|', 'late', 600);
        expect(await store.txns.claim(k('p:t6'), 'kyc|9|', 60)).toEqual({ status: 'done', fingerprint: 'kyc|9|', outcome: 'late' });
      });
    });

    describe('rate limiter', () => {
      beforeEach(() => clock.freeze());

      it('allows a full burst, then refuses with the wait until the next token', async () => {
        const limit = { perSecond: 2, burst: 3 };
        const taken = [];
        for (let i = 0; i < 4; i++) taken.push(await store.rateLimiter.take(k('partner'), limit));
        expect(taken).toEqual([
          { allowed: true, retryAfterMs: 0 }, { allowed: true, retryAfterMs: 0 }, { allowed: true, retryAfterMs: 0 },
          { allowed: false, retryAfterMs: 500 },
        ]);
      });

      it('refills at perSecond and never holds more than the burst', async () => {
        const limit = { perSecond: 4, burst: 2 };
        await store.rateLimiter.take(k('partner'), limit);
        await store.rateLimiter.take(k('partner'), limit);
        clock.advance(125);
        expect(await store.rateLimiter.take(k('partner'), limit)).toEqual({ allowed: false, retryAfterMs: 125 });
        clock.advance(125);
        expect(await store.rateLimiter.take(k('partner'), limit)).toEqual({ allowed: true, retryAfterMs: 0 });
        clock.advance(3_600_000);
        const after = [];
        for (let i = 0; i < 3; i++) after.push((await store.rateLimiter.take(k('partner'), limit)).allowed);
        expect(after).toEqual([true, true, false]);
      });

      it('charges a batch its cost, refusing without taking anything when too few tokens remain', async () => {
        const limit = { perSecond: 1, burst: 10 };
        expect(await store.rateLimiter.take(k('batch'), limit, 7)).toEqual({ allowed: true, retryAfterMs: 0 });
        expect(await store.rateLimiter.take(k('batch'), limit, 4)).toEqual({ allowed: false, retryAfterMs: 1000 });
        expect(await store.rateLimiter.take(k('batch'), limit, 3)).toEqual({ allowed: true, retryAfterMs: 0 });
        clock.advance(60_000);
        // More than the burst is never allowed, not even from a full bucket, and takes nothing.
        expect((await store.rateLimiter.take(k('batch'), limit, 11)).allowed).toBe(false);
        expect((await store.rateLimiter.take(k('batch'), limit, 10)).allowed).toBe(true);
        expect((await store.rateLimiter.take(k('batch'), limit, 1)).allowed).toBe(false);
      });

      it('keeps one bucket per key', async () => {
        const limit = { perSecond: 0.01, burst: 1 };
        expect((await store.rateLimiter.take(k('a'), limit)).allowed).toBe(true);
        expect((await store.rateLimiter.take(k('a'), limit)).allowed).toBe(false);
        expect((await store.rateLimiter.take(k('b'), limit)).allowed).toBe(true);
      });

      it('never hands out more than the burst to simultaneous takes', async () => {
        const decisions = await Promise.all(Array.from({ length: 30 }, () => store.rateLimiter.take(k('busy'), { perSecond: 0.01, burst: 5 })));
        expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
        for (const d of decisions.filter((x) => !x.allowed)) expect(d.retryAfterMs).toBe(100_000);
      });
    });

    describeQuotaCounterContract(() => ({ store, clock, k }));

    describe('admission (rate limit, then txn_id claim, in one step)', () => {
      beforeEach(() => clock.freeze());
      // A txn_id's key is `<rate key>:<txn_id>` (the port's rule): Redis keeps both in one slot.
      const txn = (id: string, fingerprint: string, partner = 'p') => ({ key: `${k(partner)}:${id}`, fingerprint, ttlS: 60 });

      it('charges the bucket and claims the txn_id; a refused request claims nothing', async () => {
        const rate = { key: k('p'), limit: { perSecond: 1, burst: 2 }, cost: 1 };
        expect(await store.admission.admit({ rate, txn: txn('a1', 'kyc|1|') })).toEqual({ status: 'admitted', claim: { status: 'claimed' } });
        expect(await store.admission.admit({ rate, txn: txn('a1', 'kyc|1|') })).toEqual({ status: 'admitted', claim: { status: 'in-flight', fingerprint: 'kyc|1|' } });
        expect(await store.admission.admit({ rate, txn: txn('a2', 'kyc|2|') })).toEqual({ status: 'refused', retryAfterMs: 1000 });
        // a2 was refused before its claim: once a token is back, it is still free.
        clock.advance(1000);
        expect(await store.admission.admit({ rate, txn: txn('a2', 'kyc|2|') })).toEqual({ status: 'admitted', claim: { status: 'claimed' } });
        // The admission's bucket and txn_ids are the rate limiter's and the txn store's own.
        expect((await store.rateLimiter.take(k('p'), rate.limit)).allowed).toBe(false);
        await store.txns.complete(txn('a2', '').key, 'kyc|2|', 'out', 600);
        expect(await store.admission.admit({ txn: txn('a2', 'kyc|2|') })).toEqual({ status: 'admitted', claim: { status: 'done', fingerprint: 'kyc|2|', outcome: 'out' } });
      });

      it('admits with only a rate limit, only a txn_id, or neither', async () => {
        const rate = { key: k('q'), limit: { perSecond: 1, burst: 1 }, cost: 1 };
        expect(await store.admission.admit({ rate })).toEqual({ status: 'admitted' });
        expect(await store.admission.admit({ rate })).toEqual({ status: 'refused', retryAfterMs: 1000 });
        expect(await store.admission.admit({ txn: txn('b1', 'sim_swap|1|') })).toEqual({ status: 'admitted', claim: { status: 'claimed' } });
        expect(await store.txns.claim(txn('b1', '').key, 'x', 60)).toEqual({ status: 'in-flight', fingerprint: 'sim_swap|1|' });
        expect(await store.admission.admit({})).toEqual({ status: 'admitted' });
      });

      it('gives one txn_id to exactly one of many simultaneous admissions, and charges each admitted one', async () => {
        const rate = { key: k('r'), limit: { perSecond: 0.01, burst: 30 }, cost: 1 };
        const all = await Promise.all(Array.from({ length: 40 }, (_, i) => store.admission.admit({ rate, txn: txn('race', `kyc|${i}|`, 'r') })));
        expect(all.filter((a) => a.status === 'refused')).toHaveLength(10);
        expect(all.filter((a) => a.status === 'admitted' && a.claim?.status === 'claimed')).toHaveLength(1);
      });
    });
  });
}
