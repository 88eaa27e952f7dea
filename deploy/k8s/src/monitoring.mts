import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import yaml from 'js-yaml';
import { PrometheusRule, ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { APP, labels, selector } from './settings.mjs';

/** Scrapes every pod's admin port through the Service; the job label stays "verify-customer" as the rules expect. */
export function serviceMonitor(): ServiceMonitor {
  return new ServiceMonitor({
    metadata: { name: APP, labels },
    spec: {
      jobLabel: 'app.kubernetes.io/name',
      selector: { matchLabels: selector },
      endpoints: [{ port: 'admin', path: '/metrics', interval: '15s', scrapeTimeout: '10s' }],
    },
  });
}

interface RuleFile { groups: Array<{ name: string; interval?: string; rules: Array<Record<string, unknown>> }> }

/** The same recording and alerting rules as grafana/prometheus/rules.yml (promtool-tested), as a PrometheusRule. */
export function prometheusRule(repoRoot: string): PrometheusRule {
  const file = yaml.load(readFileSync(join(repoRoot, 'grafana', 'prometheus', 'rules.yml'), 'utf8')) as RuleFile;
  return new PrometheusRule({
    metadata: { name: APP, labels },
    spec: {
      groups: file.groups.map((g) => ({
        name: g.name,
        ...(g.interval ? { interval: g.interval } : {}),
        rules: g.rules.map((r) => ({
          ...r,
          // The operator's schema wants expr as a string (rules.yml may use numbers or blocks).
          expr: String(r.expr),
        })) as never,
      })),
    },
  });
}
