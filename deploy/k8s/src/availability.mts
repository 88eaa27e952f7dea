import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { APP, REPLICAS, labels, selector } from './settings.mjs';

/** Voluntary disruptions (node drains) take one pod at a time. */
export function podDisruptionBudget(): PodDisruptionBudget {
  return new PodDisruptionBudget({
    metadata: { name: APP, labels },
    spec: { maxUnavailable: 1, selector: { matchLabels: selector } },
  });
}

/** CPU is what a cache-hit request spends (docs/performance.md): scale on it, never below the fleet's three. */
export function horizontalPodAutoscaler(): HorizontalPodAutoscaler {
  return new HorizontalPodAutoscaler({
    metadata: { name: APP, labels },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name: APP },
      minReplicas: REPLICAS,
      maxReplicas: 12,
      metrics: [{ type: 'Resource', resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } } }],
      behavior: { scaleDown: { stabilizationWindowSeconds: 300, policies: [{ type: 'Pods', value: 1, periodSeconds: 60 }] } },
    },
  });
}
