import { Deployment } from 'kubernetes-models/apps/v1';
import { ADMIN_PORT, APP, HTTP_PORT, IMAGE, REPLICAS, labels, secrets, selector, shutdown, terminationGracePeriodSeconds } from './settings.mjs';

/** The service's pods: non-root, read-only root, probed on /healthz and /readyz, drained on stop. */
export function deployment(): Deployment {
  return new Deployment({
    metadata: { name: APP, labels },
    spec: {
      replicas: REPLICAS,
      revisionHistoryLimit: 5,
      selector: { matchLabels: selector },
      // One new pod before an old one goes: a rolling deploy never lowers capacity.
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
      template: {
        metadata: {
          labels,
          annotations: { 'kubectl.kubernetes.io/default-container': APP },
        },
        spec: {
          terminationGracePeriodSeconds,
          automountServiceAccountToken: false,
          securityContext: {
            runAsNonRoot: true,
            runAsUser: 1000,
            runAsGroup: 1000,
            fsGroup: 1000,
            seccompProfile: { type: 'RuntimeDefault' },
          },
          topologySpreadConstraints: [{
            maxSkew: 1,
            topologyKey: 'kubernetes.io/hostname',
            whenUnsatisfiable: 'ScheduleAnyway',
            labelSelector: { matchLabels: selector },
          }],
          containers: [{
            name: APP,
            image: IMAGE,
            imagePullPolicy: 'IfNotPresent',
            ports: [
              { name: 'http', containerPort: HTTP_PORT, protocol: 'TCP' },
              { name: 'admin', containerPort: ADMIN_PORT, protocol: 'TCP' },
            ],
            envFrom: [
              { configMapRef: { name: `${APP}-config` } },
              // EVENTS_TOKEN, AUDIT_DATABASE_URL and other secret settings, created by the operator.
              { secretRef: { name: secrets.env.name, optional: true } },
            ],
            // V8's heap sized to the memory limit below (384 MB old space + new space + the
            // binary stays under 512Mi): it collects harder before the kernel would kill the pod.
            // S1's peak RSS with it: 126 MB against 197 MB, same throughput (docs/performance.md).
            env: [{ name: 'NODE_OPTIONS', value: '--max-old-space-size=384' }],
            resources: {
              requests: { cpu: '500m', memory: '256Mi' },
              limits: { memory: '512Mi' },
            },
            securityContext: {
              allowPrivilegeEscalation: false,
              readOnlyRootFilesystem: true,
              capabilities: { drop: ['ALL'] },
            },
            // The probes are on the admin listener (ADMIN_PORT): the partners' port answers them 404.
            startupProbe: { httpGet: { path: '/healthz', port: 'admin' }, periodSeconds: 1, failureThreshold: 30 },
            livenessProbe: { httpGet: { path: '/healthz', port: 'admin' }, periodSeconds: 10, timeoutSeconds: 2, failureThreshold: 3 },
            readinessProbe: { httpGet: { path: '/readyz', port: 'admin' }, periodSeconds: 2, timeoutSeconds: 2, failureThreshold: 1, successThreshold: 1 },
            lifecycle: { preStop: { sleep: { seconds: shutdown.preStopSleepS } } },
            volumeMounts: [
              { name: 'partners', mountPath: secrets.partners.mountPath, readOnly: true },
              { name: 'oauth-keys', mountPath: secrets.oauthKeys.mountPath, readOnly: true },
              { name: 'sink-credentials-key', mountPath: secrets.sinkCredentialsKey.mountPath, readOnly: true },
              { name: 'kyc-match-key', mountPath: secrets.kycMatchKey.mountPath, readOnly: true },
              // The audit spool and JSON-lines store (AUDIT_DIR): the only writable path.
              { name: 'var', mountPath: '/app/var' },
            ],
          }],
          volumes: [
            { name: 'partners', secret: { secretName: secrets.partners.name, defaultMode: 0o440 } },
            { name: 'oauth-keys', secret: { secretName: secrets.oauthKeys.name, defaultMode: 0o440 } },
            { name: 'sink-credentials-key', secret: { secretName: secrets.sinkCredentialsKey.name, defaultMode: 0o440 } },
            { name: 'kyc-match-key', secret: { secretName: secrets.kycMatchKey.name, defaultMode: 0o440 } },
            { name: 'var', emptyDir: { sizeLimit: '1Gi' } },
          ],
        },
      },
    },
  });
}
