import http from 'node:http';
import { AddressInfo } from 'node:net';
import { fanoutNumbers, inParallel, placement, sendSwaps } from '../../bench/fanout-requests';
import { startSinks } from '../../bench/fanout-sinks';

describe('F1 subscriptions and swaps', () => {
  it('when 10 subscriptions per number are placed over 1,000 numbers, then each of 10 sinks gets one per number, evenly', () => {
    const perNumber = new Map<number, Set<number>>();
    const perSink = Array.from({ length: 10 }, () => 0);
    for (let k = 0; k < 10_000; k++) {
      const at = placement(k, 1000, 10);
      perNumber.set(at.number, (perNumber.get(at.number) ?? new Set()).add(at.sink));
      perSink[at.sink]++;
    }
    expect(perNumber.size).toBe(1000);
    expect([...perNumber.values()].every((sinks) => sinks.size === 10)).toBe(true);
    expect(perSink).toEqual(Array.from({ length: 10 }, () => 1000));
    expect(placement(12_345, 1000, 1).sink).toBe(0);
  });

  it('when numbers are made, then they are distinct numbers of the plan (255, a 9-digit national number not starting with 0)', () => {
    const numbers = fanoutNumbers(5_000_000, 3);
    expect(numbers).toEqual(['255795000000', '255795000001', '255795000002']);
    expect(new Set(fanoutNumbers(0, 1000)).size).toBe(1000);
    expect(fanoutNumbers(0, 1000).every((n) => /^255[1-9]\d{8}$/.test(n))).toBe(true);
  });

  it('when items run in parallel, then at most `limit` calls are in flight and each item is called once', async () => {
    let inFlight = 0;
    let most = 0;
    const seen: number[] = [];
    jest.useFakeTimers();
    const all = inParallel(Array.from({ length: 25 }, (_, i) => i), 4, async (item, index) => {
      expect(item).toBe(index);
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 1 + (item % 3)));
      seen.push(item);
      inFlight--;
    });
    // Each call takes 1 to 3 ms of fake time: the clock runs until every timer has fired.
    await jest.runAllTimersAsync().finally(() => jest.useRealTimers());
    await all;
    expect(most).toBe(4);
    expect(seen.sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i));
  });

  it('when a swap is answered 503 or 4xx, then it is retried as the reporter does or given up on, and the acknowledgement is timed from the first send', async () => {
    const seen: string[] = [];
    const server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => { body += c.toString(); });
      req.on('end', () => {
        const { msisdn } = JSON.parse(body) as { msisdn: string };
        seen.push(`${req.headers.authorization ?? ''} ${msisdn}`);
        const status = msisdn === 'bad' ? 400 : msisdn === 'busy' && seen.filter((x) => x.endsWith('busy')).length === 1 ? 503 : 200;
        res.writeHead(status).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const burst = await sendSwaps(url, 'events-token', ['ok', 'busy', 'bad'], 3);
      expect(burst.retried).toEqual({ 503: 1 });
      expect(burst.failed).toEqual({ 400: 1 });
      expect(burst.ackMs).toHaveLength(2);
      expect(Math.max(...burst.ackMs)).toBeGreaterThanOrEqual(400);
      expect(burst.sentAtMs).toHaveLength(3);
      expect(seen.filter((x) => x === 'Bearer events-token busy')).toHaveLength(2);
    } finally {
      server.close();
      server.closeAllConnections();
    }
  });

  it('when a call fails, then the run rejects with the first failure', async () => {
    await expect(inParallel([1, 2, 3], 2, async (n) => { if (n === 2) throw new Error('two'); })).rejects.toThrow('two');
  });
});

describe('F1 sinks', () => {
  it('when a sink gets a CloudEvent, then it answers 204 and records it per sink; when it gets anything else, then 400, unrecorded', async () => {
    const sinks = await startSinks(2);
    try {
      expect(new Set(sinks.urls.map((u) => new URL(u).origin)).size).toBe(2);
      const post = (url: string, body: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/cloudevents+json' }, body });
      const event = { id: 'e1', type: 'swapped', time: '2026-01-01T00:00:00.000Z', data: { subscriptionId: 's1' } };
      expect((await post(sinks.urls[1], JSON.stringify(event))).status).toBe(204);
      expect((await post(sinks.urls[1], JSON.stringify(event))).status).toBe(204);
      expect((await post(sinks.urls[0], '{"id":"e2"}')).status).toBe(400);
      expect((await post(sinks.urls[0], 'not json')).status).toBe(400);
      expect(sinks.arrivals).toEqual([
        expect.objectContaining({ sink: 1, eventId: 'e1', type: 'swapped', subscriptionId: 's1', eventTimeMs: Date.parse(event.time) }),
        expect.objectContaining({ sink: 1, eventId: 'e1' }),
      ]);
      expect(sinks.distinct()).toBe(1);
      expect(sinks.malformed).toBe(2);
      sinks.reset();
      expect([sinks.arrivals.length, sinks.distinct(), sinks.malformed]).toEqual([0, 0, 0]);
    } finally {
      await sinks.close();
    }
  });
});
