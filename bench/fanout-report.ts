import { formatTable } from '../tools/process-kit/text-table';
import { FanoutResult } from './fanout-phase';

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');

/** F1 as a Markdown table, then one line on creation, the burst's acknowledgements and the attempts. */
export function fanoutTable(r: FanoutResult): string {
  const s = r.settings;
  const table = formatTable(
    ['scenario', 'deliveries/s', 'p50 ms', 'p99 ms', 'max ms', 'delivered / expected', 'duplicates', 'lost', 'service CPU %', 'redis CPU %', 'bench CPU %', 'Redis cmds per delivery'],
    [[
      `${r.id} ${r.title}`, fmt(r.deliveriesPerS), fmt(r.fromSent.p50Ms), fmt(r.fromSent.p99Ms), fmt(r.fromSent.maxMs),
      `${r.distinctEvents} / ${r.expected}`, String(r.duplicates), String(r.lost),
      fmt(r.cpuPct.service), fmt(r.cpuPct.redis), fmt(r.cpuPct.bench), fmt(r.redisCommandsPerDelivery, 1),
    ]],
    { markdown: true },
  );
  const statuses = (m: Record<string, number>) => Object.entries(m).map(([status, n]) => `${n} x ${status}`).join(', ') || 'none';
  const attempts = Object.entries(r.attempts).map(([outcome, n]) => `${outcome} ${n}`).join(', ') || 'none';
  const commands = Object.entries(r.redisCommands).slice(0, 6).map(([name, n]) => `${name} ${fmt(n / r.distinctEvents, 1)}`).join(', ');
  return [
    table,
    `${r.id}: WEBHOOK_CONCURRENCY=${s.concurrency}, WEBHOOK_SINK_CONCURRENCY=${s.sinkConcurrency}; ${r.expected} events over ${fmt(r.spanS, 2)} s `
      + `(first swap sent to last event received); from the event's time: p50 ${fmt(r.fromEventTime.p50Ms)} ms, p99 ${fmt(r.fromEventTime.p99Ms)} ms; per sink ${r.perSink.join(' ')}.`,
    `${r.id}: ${s.subscriptions} subscriptions created at ${fmt(r.creation.perS)}/s; ${r.burst.swaps} swaps sent in ${fmt(r.burst.sendS, 2)} s `
      + `(${r.inFlight} in flight; 200 after p50 ${fmt(r.burst.ackP50Ms, 1)} ms, p99 ${fmt(r.burst.ackP99Ms, 1)} ms; `
      + `retried: ${statuses(r.burst.retried)}; never acknowledged: ${statuses(r.burst.failed)}); `
      + `attempts ${attempts}; unexpected ${r.unexpected}, malformed ${r.malformed}, several events for one subscription ${r.subscriptionsWithSeveralEvents}; service peak RSS ${fmt(r.peakRssMb)} MB.`,
    `${r.id}: Redis commands per delivered event, most frequent: ${commands || '-'}.`,
  ].join('\n');
}

/** F1's rows of the target table: exactly once is a target, the rates are information. */
export function fanoutTargets(r: FanoutResult | undefined): { name: string; value: string; goal: string; met: boolean | null }[] {
  const sum = (m: Record<string, number>) => Object.values(m).reduce((a, n) => a + n, 0);
  const failedSwaps = r ? sum(r.burst.failed) : 0;
  return [
    {
      name: 'F1 swap attempts retried (5xx); swaps never acknowledged', value: r ? `${sum(r.burst.retried)}; ${failedSwaps} (of ${r.burst.swaps})` : '-',
      goal: 'info; 0', met: r ? failedSwaps === 0 : null,
    },
    {
      name: 'F1 events: lost, duplicated (of one per subscription)', value: r ? `${r.lost}, ${r.duplicates} (of ${r.expected})` : '-',
      goal: '0, 0', met: r ? r.lost === 0 && r.duplicates === 0 && r.subscriptionsWithSeveralEvents === 0 && failedSwaps === 0 : null,
    },
    {
      name: 'F1 deliveries/s; p99 swap sent -> event received', value: r ? `${fmt(r.deliveriesPerS)}/s; ${fmt(r.fromSent.p99Ms)} ms` : '-',
      goal: 'info', met: null,
    },
  ];
}
