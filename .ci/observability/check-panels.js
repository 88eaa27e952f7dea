'use strict';
/**
 * Evaluates every query of every committed dashboard through a real Prometheus' HTTP API and
 * fails naming each panel whose query returns no data (or only NaN). Also checks that the
 * dashboard variables list values, that every recording and alert rule evaluates without
 * error, and that the alerts named with --expect-alert are pending or firing.
 *
 * node check-panels.js --prometheus URL --dashboards DIR [--job NAME] [--expect-alert NAME]... [--timeout-s N]
 */
const { readdirSync, readFileSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { isHttpUrl, parseOrExit } = require('./script-args');

const USAGE = 'node check-panels.js --prometheus URL --dashboards DIR [--job NAME] [--expect-alert NAME]... [--timeout-s 1-3600]';

function args() {
  const { values } = parseOrExit('check-panels', USAGE, {
    options: {
      prometheus: { type: 'string' },
      dashboards: { type: 'string' },
      job: { type: 'string', default: 'verify-customer' },
      'expect-alert': { type: 'string', multiple: true, default: [] },
      'timeout-s': { type: 'string', default: '30' },
    },
  }, (p) => {
    if (!p.values.prometheus || !p.values.dashboards) return '--prometheus and --dashboards are required';
    if (!isHttpUrl(p.values.prometheus)) return '--prometheus must be an http:// or https:// URL';
    const t = p.values['timeout-s'];
    if (!/^\d{1,4}$/.test(t) || Number(t) < 1 || Number(t) > 3600) return '--timeout-s must be a whole number of seconds from 1 to 3600';
    return undefined;
  });
  return { prometheus: values.prometheus, dashboards: values.dashboards, job: values.job, expectAlerts: values['expect-alert'], timeoutS: Number(values['timeout-s']) };
}

function jsonFiles(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return jsonFiles(path);
    return name.endsWith('.json') ? [path] : [];
  });
}

/** What Grafana would put in place of each variable, with the scrape interval at 1 s. */
function substitute(expr, job) {
  const values = { __rate_interval: '1m', __interval: '15s', __range: '5m', job, instance: '.*' };
  return expr.replace(/\$\{(\w+)\}|\$(\w+)/g, (whole, braced, bare) => {
    const name = braced ?? bare;
    if (!(name in values)) throw new Error(`unknown variable ${whole} in ${expr}`);
    return values[name];
  });
}

/** Every query to evaluate: panel targets (rows' nested panels too) and label_values variables. */
function checks(file, dashboard, job) {
  const out = [];
  const panels = (dashboard.panels ?? []).flatMap((p) => [p, ...(p.panels ?? [])]);
  for (const p of panels) {
    for (const t of p.targets ?? []) {
      out.push({ what: `${file}: panel ${p.id} "${p.title}" query ${t.refId}`, expr: substitute(t.expr, job) });
    }
  }
  for (const v of dashboard.templating?.list ?? []) {
    if (v.type !== 'query') continue;
    const m = /^label_values\((.+),\s*(\w+)\)$/.exec(v.query);
    if (!m) throw new Error(`${file}: variable ${v.name}: unsupported query ${v.query}`);
    out.push({ what: `${file}: variable $${v.name}`, expr: substitute(`count by (${m[2]}) (${m[1]})`, job) });
  }
  return out;
}

async function api(base, path) {
  const res = await fetch(`${base}${path}`);
  const body = await res.json();
  if (body.status !== 'success') throw new Error(`${path}: ${body.error ?? res.status}`);
  return body.data;
}

async function hasData(base, expr) {
  const data = await api(base, `/api/v1/query?query=${encodeURIComponent(expr)}`);
  const values = data.resultType === 'scalar' ? [data.result] : data.result.map((r) => r.value);
  return values.some(([, v]) => Number.isFinite(Number(v)));
}

async function ruleProblems(base) {
  const { groups } = await api(base, '/api/v1/rules');
  const rules = groups.flatMap((g) => g.rules);
  if (rules.length === 0) return ['no rules loaded'];
  return rules.filter((r) => r.health !== 'ok').map((r) => `rule ${r.name ?? r.record}: ${r.health} ${r.lastError ?? ''}`.trim());
}

async function missingAlerts(base, names) {
  const { alerts } = await api(base, '/api/v1/alerts');
  return names.filter((n) => !alerts.some((a) => a.labels.alertname === n)).map((n) => `alert ${n} is neither pending nor firing`);
}

async function main() {
  const opts = args();
  const all = jsonFiles(opts.dashboards).flatMap((f) => checks(f, JSON.parse(readFileSync(f, 'utf8')), opts.job));
  let pending = all;
  let problems;
  const deadline = Date.now() + opts.timeoutS * 1000;
  // Data arrives with scrapes and rule evaluations: retry what is missing until the deadline.
  for (;;) {
    const still = [];
    for (const c of pending) if (!(await hasData(opts.prometheus, c.expr))) still.push(c);
    pending = still;
    problems = [...await ruleProblems(opts.prometheus), ...await missingAlerts(opts.prometheus, opts.expectAlerts)];
    if ((pending.length === 0 && problems.length === 0) || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 1000));
  }
  for (const c of pending) process.stderr.write(`NO DATA  ${c.what}\n         ${c.expr}\n`);
  for (const p of problems) process.stderr.write(`PROBLEM  ${p}\n`);
  const passed = all.length - pending.length;
  process.stdout.write(`panel queries: ${passed} passed, ${pending.length} failed (of ${all.length}); rule/alert problems: ${problems.length}\n`);
  process.exitCode = pending.length === 0 && problems.length === 0 ? 0 : 1;
}

main().catch((err) => {
  process.stderr.write(`check-panels: ${err.message}\n`);
  process.exitCode = 1;
});
