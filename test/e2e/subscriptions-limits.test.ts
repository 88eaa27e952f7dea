import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defaultPartnersPath } from '../../src/kernel/repo-paths';
import { SinkServer, startSink } from '../support/sink-server';
import { SUBS, SubsHarness, startSubsHarness, subscriptionBody } from '../support/subscriptions-harness';

/*
 * The subscription routes spend the partner's rate limit (the one its lookups spend) and a
 * partner holds at most SUBSCRIPTIONS_MAX_PER_PARTNER subscriptions: 429 as the yaml's Generic429.
 */

const PHONE = '+255712000001';

function partnersWithLimited(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'vc-partners-')), 'partners.json');
  const demo = JSON.parse(readFileSync(defaultPartnersPath(), 'utf8')) as { partners: unknown[] };
  demo.partners.push({
    name: 'limited', apiKey: 'limited-key', secret: 'limited-secret', operations: ['sim_swap'], enabled: true,
    // Burst 4: the token request spends one (the token endpoint charges the same limit), the routes three.
    rateLimit: { perSecond: 0.1, burst: 4 },
  });
  writeFileSync(file, JSON.stringify(demo));
  return file;
}

describe('subscription rate limit and quota', () => {
  let h: SubsHarness;
  let sink: SinkServer;

  beforeAll(async () => {
    h = await startSubsHarness({ PARTNERS_FILE: partnersWithLimited(), SUBSCRIPTIONS_MAX_PER_PARTNER: '3' });
    sink = await startSink();
  });
  afterAll(async () => {
    await sink.close();
    await h.close();
  });

  test('when a partner with a rate limit of burst 4 gets a token, creates, lists and reads, then its next request is 429 TOO_MANY_REQUESTS with Retry-After', async () => {
    const token = await h.tokens.twoLegged({ clientId: 'limited-key', clientSecret: 'limited-secret' });
    const created = await h.subscribe(subscriptionBody(sink.url, PHONE), token);
    expect(created.status).toBe(201);
    expect((await h.call(SUBS, undefined, { method: 'GET', token })).status).toBe(200);
    expect((await h.call(`${SUBS}/${created.body.id}`, undefined, { method: 'GET', token })).status).toBe(200);

    const refused = await h.call(`${SUBS}/${created.body.id}`, undefined, { method: 'DELETE', token });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ status: 429, code: 'TOO_MANY_REQUESTS', message: expect.any(String) as string });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect((await h.call(SUBS, undefined, { method: 'GET', token })).status).toBe(429);
    expect((await h.subscribe(subscriptionBody(sink.url, PHONE), token)).status).toBe(429);
  });

  test('when a partner holds SUBSCRIPTIONS_MAX_PER_PARTNER subscriptions, then another is 429 QUOTA_EXCEEDED until one is deleted', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await h.subscribe(subscriptionBody(`${sink.url}/${i}`, PHONE));
      expect(r.status).toBe(201);
      ids.push(r.body.id);
    }
    const over = await h.subscribe(subscriptionBody(`${sink.url}/3`, PHONE));
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ status: 429, code: 'QUOTA_EXCEEDED' });
    expect((await h.call(SUBS, undefined, { method: 'GET', token: h.subsToken })).body).toHaveLength(3);

    expect((await h.call(`${SUBS}/${ids[0]}`, undefined, { method: 'DELETE', token: h.subsToken })).status).toBe(204);
    expect((await h.subscribe(subscriptionBody(`${sink.url}/3`, PHONE))).status).toBe(201);
  });
});
