import { OutcomeTally } from './outcome-tally';
import { Sample } from './steady-load';

/** One scenario of the fault suite, as docs/reliability.md reports it. */
export interface ScenarioRow {
  scenario: string;
  sent: number;
  /** "200 00000" → count. */
  answers: Record<string, number>;
  malformed: number;
  /** Requests that got no answer and should have. */
  missing: number;
  /** SIGTERM only: requests sent after the signal that found the server closed (refused or reset). */
  refusedAfterShutdown: number;
  slowestMs: number;
  notes: string[];
}

export interface SummariseOptions {
  /** Epoch ms of SIGTERM: a request sent from then on without an answer was refused, not lost. */
  shutdownAt?: number;
  notes?: string[];
}

/** An empty row, to fill sample by sample with addSample (a long run keeps no samples). */
export function emptyRow(scenario: string, notes: string[] = []): ScenarioRow {
  return { scenario, sent: 0, answers: {}, malformed: 0, missing: 0, refusedAfterShutdown: 0, slowestMs: 0, notes };
}

/** Counts one sample into a row: its answer ("200 00000"), or why there was none. */
export function addSample(row: ScenarioRow, s: Sample, shutdownAt?: number): void {
  row.sent++;
  if (s.outcome === 'no-answer') {
    if (shutdownAt !== undefined && s.sentAt >= shutdownAt) row.refusedAfterShutdown++;
    else row.missing++;
    return;
  }
  if (s.outcome === 'malformed') row.malformed++;
  const key = `${s.status} ${s.code ?? '-'}`;
  row.answers[key] = (row.answers[key] ?? 0) + 1;
  row.slowestMs = Math.max(row.slowestMs, s.ms);
}

export function summarise(scenario: string, samples: readonly Sample[], opts: SummariseOptions = {}): ScenarioRow {
  const row = emptyRow(scenario, opts.notes);
  for (const s of samples) addSample(row, s, opts.shutdownAt);
  return row;
}

/** "3 × 200 00000, 1 × 503 9999", in key order. */
export function formatAnswers(answers: Record<string, number>, sep = ' × '): string {
  return Object.entries(answers).sort().map(([k, n]) => `${n}${sep}${k}`).join(', ');
}

export function formatRow(r: ScenarioRow): string {
  const answers = formatAnswers(r.answers) || 'none';
  const refused = r.refusedAfterShutdown ? `; refused after shutdown ${r.refusedAfterShutdown}` : '';
  return `${r.scenario}: sent ${r.sent}; answers ${answers}; malformed ${r.malformed}; missing ${r.missing}${refused}; slowest ${r.slowestMs} ms` +
    (r.notes.length ? `\n  ${r.notes.join('\n  ')}` : '');
}

/**
 * Collects the suite's rows, prints each as it is added and, with RELIABILITY_REPORT_DIR set,
 * writes them (and the same counts as an OutcomeTally) to <dir>/fault-suite.json.
 */
export class FaultReport {
  readonly rows: ScenarioRow[] = [];
  private readonly tally = new OutcomeTally('fault-suite');

  constructor(private readonly settings: Record<string, unknown>) {}

  add(scenario: string, samples: readonly Sample[], opts: SummariseOptions = {}): ScenarioRow {
    const row = summarise(scenario, samples, opts);
    this.rows.push(row);
    for (const s of samples) {
      if (s.outcome === 'no-answer') {
        const refused = opts.shutdownAt !== undefined && s.sentAt >= opts.shutdownAt;
        this.tally.record(scenario, refused ? `refused after shutdown (${s.error})` : `missing (${s.error})`);
      } else {
        this.tally.record(scenario, s.outcome === 'malformed' ? `malformed (${s.status})` : `${s.status} ${s.code}`, s.ms);
      }
    }
    console.log(`fault suite: ${formatRow(row)}`);
    return row;
  }

  write(): void {
    this.tally.writeIfRequested({ settings: this.settings, scenarios: this.rows });
  }
}
