import { Service } from 'kubernetes-models/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { ADMIN_PORT, APP, HTTP_PORT, labels, selector } from './settings.mjs';

/**
 * One ClusterIP Service in front of every ready pod (readiness decides who gets traffic). The
 * admin port is on it for the ServiceMonitor's scrape; the ingress routes only to "http", and
 * the NetworkPolicy lets only the monitoring namespace reach "admin".
 */
export function service(): Service {
  return new Service({
    metadata: { name: APP, labels },
    spec: {
      type: 'ClusterIP',
      selector,
      ports: [
        { name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' },
        { name: 'admin', port: ADMIN_PORT, targetPort: 'admin', protocol: 'TCP' },
      ],
    },
  });
}

/**
 * Ingress: the partners' port from the ingress controller's namespace only, the admin port
 * (metrics, SIM-management's events) from the monitoring namespace only. The kubelet's probes
 * come from the node, which NetworkPolicies do not filter. SIM-management's event sender, when
 * it runs in the cluster, needs a rule of its own here (its namespace, the admin port).
 * Egress only to DNS, Redis, the upstreams and PostgreSQL (audit), and HTTPS for webhooks.
 * Namespace names are the common defaults: adjust the labels to your cluster.
 */
export function networkPolicy(): NetworkPolicy {
  const fromNamespace = (name: string) => ({ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': name } } });
  const tcp = (port: number) => ({ protocol: 'TCP' as const, port });
  return new NetworkPolicy({
    metadata: { name: APP, labels },
    spec: {
      podSelector: { matchLabels: selector },
      policyTypes: ['Ingress', 'Egress'],
      ingress: [
        { from: [fromNamespace('ingress-nginx')], ports: [tcp(HTTP_PORT)] },
        { from: [fromNamespace('monitoring')], ports: [tcp(ADMIN_PORT)] },
      ],
      egress: [
        { ports: [{ protocol: 'UDP' as const, port: 53 }, tcp(53)] },
        { ports: [tcp(6379)] },
        { ports: [tcp(80), tcp(443)] },
        { ports: [tcp(5432)] },
      ],
    },
  });
}
