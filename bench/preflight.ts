import { Credentials, RequestFactory } from './request-factory';
import { Scenario } from './scenarios';

/**
 * One request of the scenario before the load, checked by its body: a run whose requests
 * are wrong (a 401 instead of a 200, a GraphQL error inside a 200) must fail, not be timed.
 */
export async function preflight(url: string, creds: Credentials, s: Scenario, numberBase: number): Promise<void> {
  if (s.kind === 'mix-m1') return preflightMix(url, creds, s, numberBase);
  const factory = new RequestFactory(s.kind, creds, numberBase);
  let res: Response;
  for (let attempt = 1; ; attempt++) {
    const { path, body, headers } = factory.next();
    res = await fetch(url + path, { method: 'POST', headers: headers ?? { 'content-type': 'application/json' }, body });
    // The failed-signature throttle may still hold the address right after S5: wait it out.
    if (res.status !== 429 || attempt === 5) break;
    await res.arrayBuffer();
    await new Promise((r) => setTimeout(r, 1000 * Number(res.headers.get('retry-after') ?? 1)));
  }
  const text = await res.text();
  const fail = (why: string) => { throw new Error(`${s.id} preflight: ${why}; status ${res.status}, body ${text.slice(0, 300)}`); };
  if (!s.expectStatuses.includes(res.status)) fail(`expected status ${s.expectStatuses.join(' or ')}`);
  if (s.target !== 'service') return;
  const json = JSON.parse(text) as Record<string, unknown>;
  switch (s.kind) {
    case 'kyc-hot':
    case 'kyc-no-ts':
    case 'kyc-distinct':
      if (json.code !== '00000') fail('expected code 00000');
      break;
    case 'sim-distinct':
      if (json.code !== '00000' || typeof (json.result as { sim_swapped?: unknown })?.sim_swapped !== 'string') fail('expected a SIM swap result');
      break;
    case 'camara-check-hot':
    case 'device-check-hot':
      if (typeof json.swapped !== 'boolean') fail('expected {"swapped": boolean}');
      break;
    case 'kyc-match-hot':
      if (json.givenNameMatch !== 'true' || json.birthdateMatch !== 'false') fail('expected {"givenNameMatch":"true",...,"birthdateMatch":"false"}');
      break;
    case 'kyc-bad-sig':
      if (res.status !== 401 || json.code !== '11111') fail('expected 401 with code 11111');
      break;
    case 'graphql-batch': {
      const items = (json.data as { verifyCustomers?: { kyc?: unknown; error?: unknown }[] } | undefined)?.verifyCustomers;
      if (json.errors || !Array.isArray(items) || items.length !== 50) fail('expected 50 items and no errors');
      if (items?.some((i) => i.error !== null || i.kyc === null)) fail('expected every item answered');
      break;
    }
    case 'graphql-signals': {
      const items = (json.data as { signals?: { kyc?: unknown; errors?: unknown[] }[] } | undefined)?.signals;
      if (json.errors || !Array.isArray(items) || items.length !== 50) fail('expected 50 items and no errors');
      // Per-signal errors are answers too (e.g. a terminated synthetic number); KYC is always answered.
      if (items?.some((i) => i.kyc === null)) fail('expected every item\'s KYC answered');
      break;
    }
    default: {
      const never: never = s.kind;
      throw new Error(`unknown kind ${String(never)}`);
    }
  }
}

/** M1: one whole cycle of the mix (20 requests), each checked against what its part must answer. */
async function preflightMix(url: string, creds: Credentials, s: Scenario, numberBase: number): Promise<void> {
  const factory = new RequestFactory(s.kind, creds, numberBase);
  for (let i = 0; i < 20; i++) {
    const { path, body, headers } = factory.next();
    const res = await fetch(url + path, { method: 'POST', headers, body });
    const json = await res.json() as Record<string, unknown>;
    const badSig = path.startsWith('/eai/') && i === 19;
    const ok = badSig ? res.status === 401 && json.code === '11111'
      : path.startsWith('/eai/') ? res.status === 200 && json.code === '00000'
        : res.status === 200 && typeof json.swapped === 'boolean';
    if (!ok) throw new Error(`${s.id} preflight: request ${i + 1} of the mix (${path.split('?')[0]}) got status ${res.status}, body ${JSON.stringify(json).slice(0, 300)}`);
  }
}
