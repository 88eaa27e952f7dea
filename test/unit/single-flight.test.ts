import { SingleFlight } from '../../src/kernel/single-flight';

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => { resolve = r; });
  return { promise, resolve };
}

describe('SingleFlight', () => {
  it('when callers ask for one key and version, then they share one call, and another version starts another', async () => {
    const flights = new SingleFlight<string>();
    const calls: string[] = [];
    const first = deferred<string>();
    const second = deferred<string>();
    const work = (d: { promise: Promise<string> }, name: string) => () => { calls.push(name); return d.promise; };
    const a = flights.run('sim:1', null, work(first, 'v-null'));
    const b = flights.run('sim:1', null, work(first, 'v-null again'));
    const c = flights.run('sim:1', 'v2', work(second, 'v2'));
    expect(calls).toEqual(['v-null', 'v2']);
    first.resolve('old');
    second.resolve('new');
    expect(await Promise.all([a, b, c])).toEqual(['old', 'old', 'new']);
  });

  it('when a key is forgotten, then the next caller starts its own call, and the forgotten call ending does not drop the new one', async () => {
    const flights = new SingleFlight<string>();
    const old = deferred<string>();
    const fresh = deferred<string>();
    let started = 0;
    const a = flights.run('kyc:1', 'v1', () => { started++; return old.promise; });
    flights.forget('kyc:1');
    const b = flights.run('kyc:1', 'v1', () => { started++; return fresh.promise; });
    expect(started).toBe(2);
    old.resolve('pre-swap');
    expect(await a).toBe('pre-swap');
    // Still joined while running, though the forgotten call with the same key and version ended.
    const c = flights.run('kyc:1', 'v1', () => { started++; return Promise.resolve('third'); });
    expect(started).toBe(2);
    fresh.resolve('post-swap');
    expect(await Promise.all([b, c])).toEqual(['post-swap', 'post-swap']);
    // Ended: the next caller starts anew.
    expect(await flights.run('kyc:1', 'v1', () => Promise.resolve('later'))).toBe('later');
  });
});
