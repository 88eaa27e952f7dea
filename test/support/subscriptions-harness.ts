import { CamaraHarness, startCamaraHarness } from './camara-harness';
import { CamaraReply as Reply } from './camara-harness';
import { Simulator } from '../../src/simulator/simulator';

export { until } from './until';

export const EVENTS_TOKEN = 'test-events-token-0123456789';
export const SUBS = '/sim-swap-subscriptions/v0.3/subscriptions';
export const SWAPPED = 'org.camaraproject.sim-swap-subscriptions.v0.swapped';
export const ENDED = 'org.camaraproject.sim-swap-subscriptions.v0.subscription-ended';

/** Settings that make delivery fast and local in tests. */
export const FAST_WEBHOOKS: Record<string, string> = {
  EVENTS_TOKEN,
  SINK_ALLOW_HTTP: 'true',
  SINK_ALLOW_PRIVATE: 'true',
  WEBHOOK_BACKOFF_BASE_MS: '100',
  WEBHOOK_BACKOFF_MAX_MS: '400',
  WEBHOOK_TIMEOUT_MS: '1000',
  SUBSCRIPTION_SWEEP_MS: '100',
  // Few worker slots, so that a hung sink would take them all without the per-sink limit.
  WEBHOOK_CONCURRENCY: '4',
  WEBHOOK_SINK_CONCURRENCY: '2',
  // A job in flight when its worker died or lost Redis is retaken within seconds.
  WEBHOOK_LOCK_MS: '2000',
};

/** A reply whose body is a Subscription (or an ErrorInfo: then `id` is absent). */
export interface SubReply extends Omit<Reply, 'body'> {
  body: { id: string; [field: string]: unknown };
}

export interface SubsHarness extends CamaraHarness {
  /** A two-legged token with every scope the demo partner may hold. */
  subsToken: string;
  subscribe(body: Record<string, unknown>, token?: string): Promise<SubReply>;
  /** Reports a swap as SIM management would (CONTRACT §5). */
  swap(msisdn: string, baseUrl?: string): Promise<number>;
}

export function subscriptionBody(sink: string, phoneNumber: string | undefined, extra: Record<string, unknown> = {}, config: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    protocol: 'HTTP', sink, types: [SWAPPED],
    config: { subscriptionDetail: phoneNumber === undefined ? {} : { phoneNumber }, ...config },
    ...extra,
  };
}

export async function swapAt(baseUrl: string, msisdn: string): Promise<number> {
  const res = await fetch(`${baseUrl}/internal/events/sim-swap`, {
    method: 'POST', headers: { authorization: `Bearer ${EVENTS_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ msisdn }),
  });
  await res.text();
  return res.status;
}

export async function startSubsHarness(env: Record<string, string> = {}, simulator?: Simulator): Promise<SubsHarness> {
  const c = await startCamaraHarness({ env: { ...FAST_WEBHOOKS, ...env }, ...(simulator ? { simulator } : {}) });
  const subsToken = await c.tokens.twoLegged();
  return {
    ...c, subsToken,
    subscribe: async (body, token) => {
      const r = await c.call(SUBS, body, { token: token ?? subsToken });
      return { ...r, body: r.body as SubReply['body'] };
    },
    swap: (msisdn, baseUrl) => swapAt(baseUrl ?? c.url, msisdn),
  };
}

/** A sample's value from the service's /metrics (0 when absent), e.g. `verify_webhook_deliveries_total{outcome="delivered"}`. */
export async function metric(baseUrl: string, sample: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${sample} `));
  return line ? Number(line.slice(sample.length + 1)) : 0;
}
