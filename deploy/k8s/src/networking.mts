import { Service } from 'kubernetes-models/v1';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { APP, HTTP_PORT, labels, selector } from './settings.mjs';

/** One ClusterIP Service in front of every ready pod (readiness decides who gets traffic). */
export function service(): Service {
  return new Service({
    metadata: { name: APP, labels },
    spec: {
      type: 'ClusterIP',
      selector,
      ports: [{ name: 'http', port: 80, targetPort: 'http', protocol: 'TCP' }],
    },
  });
}

/**
 * Ingress only on the HTTP port, from the ingress controller's and the monitoring namespace;
 * egress only to DNS, Redis, the upstreams and PostgreSQL (audit), and HTTPS for webhooks.
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
      ingress: [{
        from: [fromNamespace('ingress-nginx'), fromNamespace('monitoring')],
        ports: [tcp(HTTP_PORT)],
      }],
      egress: [
        { ports: [{ protocol: 'UDP' as const, port: 53 }, tcp(53)] },
        { ports: [tcp(6379)] },
        { ports: [tcp(80), tcp(443)] },
        { ports: [tcp(5432)] },
      ],
    },
  });
}
