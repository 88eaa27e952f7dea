import { ConfigMap } from 'kubernetes-models/v1';
import { ADMIN_PORT, APP, labels, secrets, shutdown } from './settings.mjs';

/** Settings that are not secret. Names are the service's own (src/config/*-settings.ts; tested). */
export function configMap(): ConfigMap {
  return new ConfigMap({
    metadata: { name: `${APP}-config`, labels },
    data: {
      NODE_ENV: 'production',
      PORT: '8080',
      HOST: '0.0.0.0',
      // Probes, /metrics and /internal/events/* on their own port, which the NetworkPolicy keeps from the ingress.
      ADMIN_PORT: String(ADMIN_PORT),
      LOG_LEVEL: 'info',
      TIMEZONE: 'UTC',
      COUNTRY_CODE: '255',
      NSN_LENGTH: '9',
      HLR_URL: 'http://hlr.operator.svc.cluster.local',
      SIM_URL: 'http://sim-management.operator.svc.cluster.local',
      CRM_URL: 'http://customer-records.operator.svc.cluster.local',
      // Redis Cluster with replicas (docs/fleet.md); seed nodes, the client discovers the rest.
      REDIS_CLUSTER_NODES: 'redis-cluster-0.redis-cluster:6379,redis-cluster-1.redis-cluster:6379,redis-cluster-2.redis-cluster:6379',
      // One replica per master: a txn_id's answer waits until the replica holds its record (docs/redis.md).
      REDIS_WAIT_REPLICAS: '1',
      PARTNERS_FILE: `${secrets.partners.mountPath}/${secrets.partners.key}`,
      OAUTH_SIGNING_KEY_FILE: `${secrets.oauthKeys.mountPath}/${secrets.oauthKeys.key}`,
      SINK_CREDENTIALS_KEY_FILE: `${secrets.sinkCredentialsKey.mountPath}/${secrets.sinkCredentialsKey.key}`,
      KYC_MATCH_KEY_FILE: `${secrets.kycMatchKey.mountPath}/${secrets.kycMatchKey.key}`,
      // The built-in issuer's identifier (iss, and the metadata's URLs): the address partners use.
      PUBLIC_URL: 'https://verify.operator.example',
      // Each pod's own audit spool and file store (docs/audit.md); AUDIT_DATABASE_URL comes from the env Secret.
      AUDIT_DIR: '/app/var',
      SHUTDOWN_READINESS_DELAY_MS: String(shutdown.readinessDelayMs),
      SHUTDOWN_GRACE_MS: String(shutdown.graceMs),
      // The pod sits behind the cluster's ingress: one proxy hop whose X-Forwarded-For is trusted.
      TRUST_PROXY_HOPS: '1',
    },
  });
}
