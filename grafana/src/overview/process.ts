import { Builder } from '@grafana/grafana-foundation-sdk/cog';
import { Panel } from '@grafana/grafana-foundation-sdk/dashboard';
import { sel, series } from '../panel-kit';

/** Node's process metrics, per instance: is the process itself healthy. */
export function processPanels(): Builder<Panel>[] {
  return [
    series({
      title: 'CPU per instance',
      description: 'CPU time used per second of wall time (1 = one full core). Node runs JavaScript on one core, so an instance near 1 is saturated whatever the machine has.',
      unit: 'percentunit',
      span: 8,
      targets: [{ expr: `sum by (instance) (rate(process_cpu_seconds_total${sel()}[$__rate_interval]))`, legend: '{{instance}}' }],
    }),
    series({
      title: 'Memory per instance',
      description: 'Resident set size and V8 heap in use. RSS growing without bound while traffic is flat suggests a leak; the in-memory store is bounded by MEMORY_CACHE_MAX_ENTRIES and MEMORY_TXN_MAX_ENTRIES.',
      unit: 'bytes',
      span: 8,
      targets: [
        { expr: `sum by (instance) (process_resident_memory_bytes${sel()})`, legend: 'rss {{instance}}' },
        { expr: `sum by (instance) (nodejs_heap_size_used_bytes${sel()})`, legend: 'heap used {{instance}}' },
      ],
    }),
    series({
      title: 'Event loop lag',
      description: 'How late the event loop runs timers (p99 and mean over prom-client\'s sampling). Lag adds directly to every request\'s latency; sustained lag above ~50 ms means CPU saturation.',
      unit: 's',
      span: 8,
      targets: [
        { expr: `max by (instance) (nodejs_eventloop_lag_p99_seconds${sel()})`, legend: 'p99 {{instance}}' },
        { expr: `max by (instance) (nodejs_eventloop_lag_mean_seconds${sel()})`, legend: 'mean {{instance}}' },
      ],
    }),
    series({
      title: 'Time spent in garbage collection',
      description: 'Share of wall time spent in GC pauses, by instance. Above a few percent, the heap is under pressure.',
      unit: 'percentunit',
      span: 8,
      targets: [{ expr: `sum by (instance) (rate(nodejs_gc_duration_seconds_sum${sel()}[$__rate_interval]))`, legend: '{{instance}}' }],
    }),
    series({
      title: 'Open file descriptors and active handles',
      description: 'Open file descriptors (sockets included) and libuv handles per instance. Growth with flat traffic means leaked connections; compare with process_max_fds.',
      unit: 'short',
      span: 8,
      targets: [
        { expr: `sum by (instance) (process_open_fds${sel()})`, legend: 'fds {{instance}}' },
        { expr: `sum by (instance) (nodejs_active_handles${sel()})`, legend: 'handles {{instance}}' },
      ],
    }),
    series({
      title: 'Uptime',
      description: 'Time since each instance\'s process started. A drop to zero that nobody deployed is a crash or an OOM kill: read that instance\'s logs around the drop.',
      unit: 's',
      span: 8,
      targets: [{ expr: `time() - max by (instance) (process_start_time_seconds${sel()})`, legend: '{{instance}}' }],
    }),
  ];
}
