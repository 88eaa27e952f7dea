'use strict';
/**
 * Drives the traffic the observability check needs, so every dashboard panel has something
 * to show: successes and cache hits, caller errors (bad signature, unknown key, stale
 * timestamp, malformed body, not a subscriber), txn_id replays and conflicts, rate limiting,
 * upstream timeouts and errors, stale KYC answers, an HLR circuit breaker opening, KYC Match
 * (answers, refusals, customer records failing) and the signal APIs (Device Swap, Call
 * Forwarding Signal, Number Recycling).
 *
 * node drive-traffic.js HEALTHY_URL FAULTY_URL SIMULATOR_URL [--healthy-admin-url URL]
 *   HEALTHY_URL: an instance with its in-process simulator (demo fixture).
 *   FAULTY_URL: an instance in front of the separate simulator at SIMULATOR_URL, started with
 *   a small breaker volume, short HLR timeout and KYC_CACHE_TTL_S=0 (see observability-check.sh).
 *   --healthy-admin-url: the healthy instance's ADMIN_PORT listener, where its events route is
 *   (default HEALTHY_URL: no admin port).
 */
const { createHash } = require('node:crypto');
const { isHttpUrl, parseOrExit } = require('./script-args');

const { positionals: [healthy, faulty, simulator], values } = parseOrExit('drive-traffic',
  'node drive-traffic.js HEALTHY_URL FAULTY_URL SIMULATOR_URL [--healthy-admin-url URL]',
  { options: { 'healthy-admin-url': { type: 'string' } }, allowPositionals: true },
  (p) => {
    if (p.positionals.length !== 3) return `expected 3 URLs, got ${p.positionals.length}`;
    const admin = p.values['healthy-admin-url'];
    return [...p.positionals, ...(admin === undefined ? [] : [admin])].every(isHttpUrl) ? undefined : 'every argument must be an http:// or https:// URL';
  });
const healthyAdmin = values['healthy-admin-url'] ?? healthy;
const DEMO = { key: 'demo-key', secret: 'demo-secret' };
const THROTTLED = { key: 'ci-throttled-key', secret: 'ci-throttled-secret' };
const SUBSCRIBERS = ['255712000001', '255712000002', '255712000003', '255712000006', '255712000008'];
const NOT_A_SUBSCRIBER = '255799999999';

function query(p, ts = String(Math.floor(Date.now() / 1000)), sig) {
  const s = sig ?? createHash('md5').update(p.key + p.secret + ts).digest('hex');
  return `api_key=${encodeURIComponent(p.key)}&timestamp=${ts}&sig=${s}`;
}

let seq = 0;
/** REST requires a txn_id (CONTRACT §1.4): a fresh one unless the body brings its own. */
function withTxn(body) {
  if (typeof body === 'string' || 'txn_id' in body) return body;
  seq += 1;
  return { txn_id: `ci${process.pid.toString(36)}${Date.now().toString(36)}${seq}`.slice(0, 25), ...body };
}

async function post(base, op, rawBody, q = query(DEMO)) {
  const body = withTxn(rawBody);
  const res = await fetch(`${base}/eai/verify_customer/query/${op}?${q}`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  await res.text();
  return res.status;
}

async function put(url, body) {
  const res = await fetch(url, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`PUT ${url} answered ${res.status}`);
}

function expect(what, got, want) {
  if (got !== want) throw new Error(`${what}: expected HTTP ${want}, got ${got}`);
}

async function healthyTraffic(base) {
  for (let round = 0; round < 2; round += 1) { // the second round is answered from cache
    for (const msisdn of SUBSCRIBERS) {
      expect(`kyc ${msisdn}`, await post(base, 'kyc', { msisdn }), 200);
      expect(`sim_swap ${msisdn}`, await post(base, 'sim_swap', { msisdn }), 200);
    }
  }
  expect('sim_swap for a non-subscriber', await post(base, 'sim_swap', { msisdn: NOT_A_SUBSCRIBER }), 404);
  expect('kyc for a non-subscriber', await post(base, 'kyc', { msisdn: NOT_A_SUBSCRIBER }), 200);
  expect('bad signature', await post(base, 'kyc', { msisdn: SUBSCRIBERS[0] }, query(DEMO, undefined, '0'.repeat(32))), 401);
  expect('unknown api key', await post(base, 'kyc', { msisdn: SUBSCRIBERS[0] }, query({ key: 'nobody', secret: 'x' })), 401);
  expect('stale timestamp', await post(base, 'kyc', { msisdn: SUBSCRIBERS[0] }, query(DEMO, '1000000000')), 401);
  expect('missing api key', await post(base, 'kyc', { msisdn: SUBSCRIBERS[0] }, 'sig=00'), 401);
  expect('malformed body', await post(base, 'kyc', '{"msisdn":'), 400);
  const txn = `ci${Date.now().toString(36)}`;
  expect('txn_id first use', await post(base, 'kyc', { txn_id: txn, msisdn: SUBSCRIBERS[0] }), 200);
  expect('txn_id replay', await post(base, 'kyc', { txn_id: txn, msisdn: SUBSCRIBERS[0] }), 200);
  expect('txn_id conflict', await post(base, 'kyc', { txn_id: txn, msisdn: SUBSCRIBERS[1] }), 409);
  const throttled = [];
  for (let i = 0; i < 4; i += 1) throttled.push(await post(base, 'kyc', { msisdn: SUBSCRIBERS[0] }, query(THROTTLED)));
  if (!throttled.includes(429)) throw new Error(`rate limit: expected a 429 among ${throttled.join(', ')}`);
  await graphqlIfPresent(base);
}

/** GraphQL is another transport's work: counted when it is there, skipped when it is not. */
async function graphqlIfPresent(base) {
  const ts = String(Math.floor(Date.now() / 1000));
  const sig = createHash('md5').update(DEMO.key + DEMO.secret + ts).digest('hex');
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': DEMO.key, 'x-timestamp': ts, 'x-signature': sig },
    body: JSON.stringify({ query: `{ kyc(msisdn: "${SUBSCRIBERS[0]}") { isValid } }` }),
  });
  await res.text();
  process.stdout.write(`graphql: HTTP ${res.status}${res.status === 404 ? ' (no GraphQL transport yet; skipped)' : ''}\n`);
}

async function faultyTraffic(base, sim) {
  // Cache KYC answers first: with KYC_CACHE_TTL_S=0 they are stale at once, served when the HLR fails.
  for (const msisdn of SUBSCRIBERS.slice(0, 3)) expect(`kyc ${msisdn}`, await post(base, 'kyc', { msisdn }), 200);
  expect('sim_swap', await post(base, 'sim_swap', { msisdn: SUBSCRIBERS[0] }), 200);
  await crmFaultTraffic(base, sim);

  await put(`${sim}/__admin/faults/hlr`, { latencyMs: 2000 }); // beyond HLR_TIMEOUT_MS: timeouts
  expect('kyc, HLR timing out, stale answer', await post(base, 'kyc', { msisdn: SUBSCRIBERS[0] }), 200);
  expect('kyc, HLR timing out, nothing cached', await post(base, 'kyc', { msisdn: '255712000005' }), 503);
  await put(`${sim}/__admin/faults/hlr`, { latencyMs: 0, down: true }); // connection dropped: errors
  expect('kyc, HLR down, stale answer', await post(base, 'kyc', { msisdn: SUBSCRIBERS[1] }), 200);
  for (let i = 0; i < 3; i += 1) await post(base, 'kyc', { msisdn: '255712000004' });

  await put(`${sim}/__admin/faults/sim`, { errorRate: 1 });
  expect('sim_swap, SIM management failing', await post(base, 'sim_swap', { msisdn: SUBSCRIBERS[1] }), 503);

  const ready = await (await fetch(`${base}/readyz`)).json();
  if (ready.upstreams?.hlr !== 'open') throw new Error(`the HLR breaker did not open: /readyz says ${JSON.stringify(ready)}`);
  expect('kyc, HLR circuit open, nothing cached', await post(base, 'kyc', { msisdn: '255712000007' }), 503);
}

async function accessToken(base, scope) {
  const res = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=client_credentials&client_id=${DEMO.key}&client_secret=${DEMO.secret}${scope ? `&scope=${encodeURIComponent(scope)}` : ''}`,
  });
  const { access_token: token } = await res.json();
  return token;
}

async function kycMatch(base, token, body) {
  const res = await fetch(`${base}/kyc-match/v0.4/match`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  });
  await res.text();
  return res.status;
}

/**
 * KYC Match (the KYC Match row and the customer-records series): answers, a bad body, a
 * non-subscriber, and one number asked past KYC_MATCH_MAX_PER_NUMBER_PER_DAY (10): 429s.
 */
async function kycMatchTraffic(base) {
  const token = await accessToken(base, 'kyc-match:match');
  expect('kyc match', await kycMatch(base, token, { phoneNumber: '+255712000011', givenName: 'Jose', birthdate: '1987-04-12' }), 200);
  expect('kyc match, no record', await kycMatch(base, token, { phoneNumber: '+255712000014', givenName: 'Amani' }), 200);
  expect('kyc match, bad date', await kycMatch(base, token, { phoneNumber: '+255712000011', birthdate: '12/04/1987' }), 400);
  expect('kyc match, not a subscriber', await kycMatch(base, token, { phoneNumber: '+255799999999', givenName: 'Amani' }), 404);
  const statuses = [];
  for (let i = 0; i < 11; i += 1) statuses.push(await kycMatch(base, token, { phoneNumber: '+255712000015', name: 'Baraka Kimaro' }));
  if (!statuses.includes(429)) throw new Error(`KYC Match daily limit: expected a 429 among ${statuses.join(', ')}`);
}

/** Customer records failing behind the faulty instance: KYC Match answers 503 and crm errors are counted. */
async function crmFaultTraffic(base, sim) {
  const token = await accessToken(base, 'kyc-match:match');
  await put(`${sim}/__admin/faults/crm`, { errorRate: 1 });
  expect('kyc match, customer records failing', await kycMatch(base, token, { phoneNumber: '+255712000012', givenName: 'Neema' }), 503);
  await put(`${sim}/__admin/faults/crm`, { errorRate: 0 });
}

/**
 * SIM swap subscriptions: a subscription whose sink is a path of the instance itself that
 * answers 404, and one swap: delivery attempts fail and are retried (the webhook panels).
 */
async function webhookTraffic(base) {
  const tokenRes = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=client_credentials&client_id=${DEMO.key}&client_secret=${DEMO.secret}`,
  });
  const { access_token: token } = await tokenRes.json();
  const sub = await fetch(`${base}/sim-swap-subscriptions/v0.3/subscriptions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      protocol: 'HTTP', sink: `${base}/ci-webhook-sink`,
      types: ['org.camaraproject.sim-swap-subscriptions.v0.swapped'],
      config: { subscriptionDetail: { phoneNumber: '+255712000001' } },
    }),
  });
  await sub.text();
  expect('subscription', sub.status, 201);
  const swap = await fetch(`${healthyAdmin}/internal/events/sim-swap`, {
    method: 'POST', headers: { authorization: 'Bearer ci-events-token-0123456789', 'content-type': 'application/json' }, body: '{"msisdn":"255712000001"}',
  });
  await swap.text();
  expect('swap event', swap.status, 200);
}

/**
 * The signal APIs (CONTRACT §11), for the signals row: each operation answered, and a caller
 * error (a number never used in a device) so the result codes differ.
 */
async function signalTraffic(base) {
  const tokenRes = await fetch(`${base}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: `grant_type=client_credentials&client_id=${DEMO.key}&client_secret=${DEMO.secret}`,
  });
  const { access_token: token } = await tokenRes.json();
  const camara = async (path, body) => {
    const res = await fetch(`${base}${path}`, {
      method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
    });
    await res.text();
    return res.status;
  };
  for (let round = 0; round < 2; round += 1) {
    expect('device swap check', await camara('/device-swap/v1/check', { phoneNumber: '+255712000011', maxAge: 24 }), 200);
    expect('device swap retrieve-date', await camara('/device-swap/v1/retrieve-date', { phoneNumber: '+255712000012' }), 200);
    expect('unconditional call forwarding', await camara('/call-forwarding-signal/v0.4/unconditional-call-forwardings', { phoneNumber: '+255712000012' }), 200);
    expect('call forwardings', await camara('/call-forwarding-signal/v0.4/call-forwardings', { phoneNumber: '+255712000013' }), 200);
    expect('number recycling', await camara('/number-recycling/v0.2/check', { phoneNumber: '+255712000015', specifiedDate: '2024-01-01' }), 200);
  }
  expect('device swap, never in a device', await camara('/device-swap/v1/check', { phoneNumber: '+255712000014' }), 422);
}

async function main() {
  await healthyTraffic(healthy);
  await kycMatchTraffic(healthy);
  await webhookTraffic(healthy);
  await signalTraffic(healthy);
  await faultyTraffic(faulty, simulator);
  process.stdout.write('traffic: done (successes, cache hits, 401/400/404/409/429, timeouts, stale answers, HLR breaker open, KYC Match)\n');
}

main().catch((err) => {
  process.stderr.write(`drive-traffic: ${err.message}\n`);
  process.exit(1);
});
