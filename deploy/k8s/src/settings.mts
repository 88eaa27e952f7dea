/** What every manifest shares: names, labels, the image, ports and the shutdown timings. */
export const APP = 'verify-customer';
export const labels = { 'app.kubernetes.io/name': APP, 'app.kubernetes.io/component': 'api' } as const;
export const selector = { 'app.kubernetes.io/name': APP } as const;

/** Replace with the digest your registry holds (see Dockerfile): manifests never float on a tag. */
export const IMAGE = `registry.example.com/${APP}@sha256:${'0'.repeat(64)}`;
export const HTTP_PORT = 8080;
/** ADMIN_PORT: probes, /metrics and /internal/events/* (CONTRACT §4), never reachable through the ingress. */
export const ADMIN_PORT = 8081;
export const REPLICAS = 3;

/**
 * Shutdown (CONTRACT §10): the kubelet runs preStop, then sends SIGTERM; the service answers
 * /readyz 503 at once, keeps serving for the readiness delay (endpoints propagate), then drains
 * for at most the grace. The pod's termination grace covers all three plus a margin, so the
 * kubelet never SIGKILLs a draining instance.
 */
export const shutdown = {
  preStopSleepS: 2,
  readinessDelayMs: 5_000,
  graceMs: 10_000,
  marginS: 3,
} as const;
export const terminationGracePeriodSeconds =
  shutdown.preStopSleepS + Math.ceil((shutdown.readinessDelayMs + shutdown.graceMs) / 1000) + shutdown.marginS;

/** Secrets the cluster operator creates (never generated here: they hold partner and signing secrets). */
export const secrets = {
  partners: { name: `${APP}-partners`, key: 'partners.json', mountPath: '/run/secrets/partners' },
  oauthKeys: { name: `${APP}-oauth-keys`, key: 'jwks.json', mountPath: '/run/secrets/oauth' },
  // The key sink credentials are encrypted with in Redis (32 bytes, base64): the same for every pod.
  sinkCredentialsKey: { name: `${APP}-sink-credentials-key`, key: 'sink-credentials.key', mountPath: '/run/secrets/sink-credentials' },
  // The key KYC Match's allowance counters are HMACs under (32 bytes, base64): the same for every pod.
  kycMatchKey: { name: `${APP}-kyc-match-key`, key: 'kyc-match.key', mountPath: '/run/secrets/kyc-match' },
  env: { name: `${APP}-env` },
} as const;
