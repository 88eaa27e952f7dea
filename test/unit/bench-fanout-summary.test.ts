import { Arrival, latencyStats, percentile, redisCommandCalls, redisCommandsBetween, summariseFanout } from '../../bench/fanout-summary';

const SWAPPED = 'swapped';

function arrival(subscriptionId: string, eventId: string, atMs: number, extra: Partial<Arrival> = {}): Arrival {
  return { sink: 0, eventId, type: SWAPPED, subscriptionId, eventTimeMs: atMs - 5, atMs, ...extra };
}

describe('F1 percentiles', () => {
  it('when percentiles are taken, then they are nearest-rank: p50 of 1..100 is 50, p99 is 99, p100 the largest', () => {
    const xs = Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(xs, 0.5)).toBe(50);
    expect(percentile(xs, 0.99)).toBe(99);
    expect(percentile(xs, 1)).toBe(100);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it('when values are ranked, then they are sorted numerically first (not as strings)', () => {
    expect(latencyStats([100, 9, 20, 3])).toEqual({ p50Ms: 9, p99Ms: 100, maxMs: 100 });
    expect(latencyStats([]).maxMs).toBeNaN();
  });
});

describe('F1 summary of a burst', () => {
  const sentAtMs = new Map([['s1', 1000], ['s2', 1000], ['s3', 1100], ['s4', 1100]]);

  it("when every subscription gets its one event, then the rate runs from first send to last arrival and latency from its number's send", () => {
    const arrivals = [
      arrival('s1', 'e1', 1010, { sink: 0 }), arrival('s2', 'e2', 1020, { sink: 1 }),
      arrival('s3', 'e3', 1130, { sink: 0 }), arrival('s4', 'e4', 3000, { sink: 1 }),
    ];
    const s = summariseFanout({ sentAtMs, arrivals, type: SWAPPED, sinks: 2 });
    expect(s).toMatchObject({ expected: 4, received: 4, distinctEvents: 4, duplicates: 0, lost: 0, subscriptionsWithSeveralEvents: 0, unexpected: 0, perSink: [2, 2] });
    expect(s.spanS).toBeCloseTo(2, 9);
    expect(s.deliveriesPerS).toBeCloseTo(2, 9);
    expect(s.fromSent).toEqual({ p50Ms: 20, p99Ms: 1900, maxMs: 1900 });
    expect(s.fromEventTime.p50Ms).toBe(5);
  });

  it('when an event id repeats, then it counts as a duplicate, its first arrival is timed, and the rate counts distinct events', () => {
    const arrivals = [
      arrival('s1', 'e1', 1010), arrival('s2', 'e2', 1020), arrival('s3', 'e3', 1130), arrival('s4', 'e4', 1200),
      arrival('s4', 'e4', 9000),
    ];
    const s = summariseFanout({ sentAtMs, arrivals, type: SWAPPED, sinks: 1 });
    expect(s).toMatchObject({ received: 5, distinctEvents: 4, duplicates: 1, lost: 0 });
    expect(s.fromSent.maxMs).toBe(100);
    expect(s.spanS).toBeCloseTo(0.2, 9);
  });

  it("when subscriptions are lost, get two different events, or events arrive that are not the burst's, then each is reported", () => {
    const arrivals = [
      arrival('s1', 'e1', 1010), arrival('s1', 'e1b', 1011), arrival('s2', 'e2', 1020),
      arrival('other', 'x1', 1050), arrival('s3', 'ended', 1060, { type: 'subscription-ended' }),
    ];
    const s = summariseFanout({ sentAtMs, arrivals, type: SWAPPED, sinks: 1 });
    expect(s).toMatchObject({ expected: 4, received: 3, distinctEvents: 3, duplicates: 0, lost: 2, subscriptionsWithSeveralEvents: 1, unexpected: 2 });
  });

  it('when nothing arrived, then there is no rate and no latency', () => {
    const s = summariseFanout({ sentAtMs, arrivals: [], type: SWAPPED, sinks: 3 });
    expect(s).toMatchObject({ distinctEvents: 0, lost: 4, perSink: [0, 0, 0] });
    expect(s.deliveriesPerS).toBeNaN();
    expect(s.fromSent.p99Ms).toBeNaN();
  });
});

describe('Redis commands from INFO commandstats', () => {
  it('when INFO commandstats is read, then the calls of every command are taken and other lines ignored', () => {
    const info = '# Commandstats\r\ncmdstat_evalsha:calls=120,usec=900,usec_per_call=7.50,rejected_calls=0,failed_calls=0\r\n'
      + 'cmdstat_info:calls=3,usec=30,usec_per_call=10.00\r\ncmdstat_client|setname:calls=2,usec=1\r\nused_memory:100\r\n';
    expect(redisCommandCalls(info)).toEqual({ evalsha: 120, info: 3, 'client|setname': 2 });
    expect(redisCommandCalls('')).toEqual({});
  });

  it('when two readings are compared, then the difference is taken, commands first seen in the second included, most calls first', () => {
    const between = redisCommandsBetween({ evalsha: 100, info: 3, get: 5 }, { evalsha: 160, info: 4, get: 5, incr: 80 });
    expect(between.total).toBe(141);
    expect(Object.entries(between.byCommand)).toEqual([['incr', 80], ['evalsha', 60], ['info', 1]]);
  });
});
