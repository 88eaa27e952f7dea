import { basename } from 'node:path';
import type { Envelope, GherkinDocument, Pickle } from '@cucumber/messages';
import { APIS, NOT_OFFERED, apiOfFeature } from './support/camara-documents';

/*
 * Per-scenario outcomes of a Cucumber run (from its messages), judged against the checked-in
 * table of scenarios that do not pass here (known-failures.json): every scenario passes or is
 * listed; a failure not listed, or a listed one that now passes (the table must not rot), fails
 * the run.
 */

export interface Listed {
  feature: string;
  tag: string;
  /** The first cell of a Scenario Outline's row; absent: every row. */
  example?: string;
  kind: 'feature-defect' | 'optional' | 'demo-data';
  reason: string;
  /** The feature file's own words, for a defect. */
  quote?: string;
  /** `NAME=VALUE` (or `NAME`, any value) of the setting that enables an optional behaviour. */
  enabledBy?: string;
}

export interface Outcome {
  feature: string;
  tag: string;
  example?: string;
  api: string;
  passed: boolean;
  message?: string;
  listed?: Listed;
  verdict: 'passed' | 'listed' | 'failed' | 'listed-but-passed';
}

const RANK: Record<string, number> = { PASSED: 0, SKIPPED: 1, UNKNOWN: 2, PENDING: 3, UNDEFINED: 4, AMBIGUOUS: 5, FAILED: 6 };

export function isEnabled(entry: Listed, settings: Record<string, string>): boolean {
  if (!entry.enabledBy) return false;
  const [name, value] = entry.enabledBy.split('=');
  return value === undefined ? settings[name] !== undefined : settings[name] === value;
}

export function findListed(table: readonly Listed[], feature: string, tag: string, example: string | undefined): Listed | undefined {
  return table.find((e) => e.feature === feature && e.tag === tag && (e.example === undefined || e.example === example));
}

/** Collects a run's messages and turns them into outcomes. */
export class RunCollector {
  private readonly docs = new Map<string, GherkinDocument>();
  private readonly pickles = new Map<string, Pickle>();
  private readonly testCases = new Map<string, string>();
  private readonly started = new Map<string, string>();
  private readonly worst = new Map<string, { status: string; message?: string }>();

  onMessage = (e: Envelope): void => {
    if (e.gherkinDocument?.uri) this.docs.set(e.gherkinDocument.uri, e.gherkinDocument);
    if (e.pickle) this.pickles.set(e.pickle.id, e.pickle);
    if (e.testCase) this.testCases.set(e.testCase.id, e.testCase.pickleId);
    if (e.testCaseStarted) this.started.set(e.testCaseStarted.id, e.testCaseStarted.testCaseId);
    if (e.testStepFinished) {
      const { testCaseStartedId, testStepResult: r } = e.testStepFinished;
      const status = String(r.status);
      const prev = this.worst.get(testCaseStartedId);
      if (!prev || (RANK[status] ?? 2) > (RANK[prev.status] ?? 2)) {
        this.worst.set(testCaseStartedId, { status, message: r.message ?? (status === 'UNDEFINED' ? 'a step is not defined' : undefined) });
      }
    }
  };

  outcomes(table: readonly Listed[], settings: Record<string, string>): Outcome[] {
    const out: Outcome[] = [];
    for (const [startedId, testCaseId] of this.started) {
      const pickle = this.pickles.get(this.testCases.get(testCaseId) ?? '');
      if (!pickle) continue;
      const feature = basename(pickle.uri);
      const tag = pickle.tags[0]?.name.slice(1) ?? pickle.name;
      const example = this.exampleOf(pickle);
      const result = this.worst.get(startedId);
      const passed = String(result?.status) === 'PASSED';
      const listed = findListed(table, feature, tag, example);
      const expectFail = listed !== undefined && !isEnabled(listed, settings);
      const verdict = passed ? (expectFail ? 'listed-but-passed' : 'passed') : (expectFail ? 'listed' : 'failed');
      out.push({ feature, tag, example, api: apiOfFeature(feature)?.title ?? feature, passed, message: result?.message, listed, verdict });
    }
    return out;
  }

  private exampleOf(pickle: Pickle): string | undefined {
    const rowId = pickle.astNodeIds[1];
    if (!rowId) return undefined;
    for (const child of this.docs.get(pickle.uri)?.feature?.children ?? []) {
      for (const ex of child.scenario?.examples ?? []) {
        const row = ex.tableBody.find((r) => r.id === rowId);
        if (row) return row.cells[0]?.value;
      }
    }
    return undefined;
  }
}

/** The summary table (API, scenarios, passed, listed, failed), then every failure and stale entry. */
export function summary(outcomes: readonly Outcome[]): string {
  const lines = ['| API | scenarios | passed | listed | failed |', '|---|---:|---:|---:|---:|'];
  const count = (api: string, v: Outcome['verdict'][]) => outcomes.filter((o) => o.api === api && v.includes(o.verdict)).length;
  for (const api of APIS) {
    const all = outcomes.filter((o) => o.api === api.title).length;
    if (all === 0) continue;
    lines.push(`| ${api.title} | ${all} | ${count(api.title, ['passed'])} | ${count(api.title, ['listed'])} | ${count(api.title, ['failed', 'listed-but-passed'])} |`);
  }
  for (const n of NOT_OFFERED) lines.push(`| ${n.title} | API not yet offered (${n.feature} not run) | | | |`);
  const bad = outcomes.filter((o) => o.verdict === 'failed' || o.verdict === 'listed-but-passed');
  for (const o of bad) {
    const name = `${o.feature} @${o.tag}${o.example ? ` [${o.example}]` : ''}`;
    lines.push(o.verdict === 'failed'
      ? `FAILED ${name}: ${(o.message ?? '').split('\n').slice(0, 3).join(' | ')}`
      : `LISTED BUT PASSED ${name}: remove it from known-failures.json (${o.listed?.reason ?? ''})`);
  }
  return lines.join('\n');
}
