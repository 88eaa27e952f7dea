import { MemoryDelivery } from '../../src/subscriptions/delivery/memory-delivery';
import { WebhookMetrics } from '../../src/subscriptions/ports/webhook-metrics';
import { Delivery } from '../../src/subscriptions/domain/subscription';
import { createLogger } from '../../src/observability/logger';

function delivery(id: string): Delivery {
  return {
    subscriptionId: 's1', partner: 'p1', sink: 'https://sink.example/x',
    event: { specversion: '1.0', id, source: '/x', type: 'org.camaraproject.sim-swap-subscriptions.v0.swapped', time: '2099-01-01T00:00:00Z', datacontenttype: 'application/json', data: {} },
  };
}

describe('in-process delivery when an attempt throws', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  test('when the sender rejects, then the event is dead-lettered and counted, with no unhandled rejection', async () => {
    const outcomes: string[] = [];
    const metrics: WebhookMetrics = { webhookAttempt() {}, webhookDelivery: (o) => outcomes.push(o), trackWebhookQueue() {} };
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    const d = new MemoryDelivery({
      send: () => Promise.reject(Object.assign(new TypeError('Invalid character in header content ["authorization"]'), { code: 'ERR_INVALID_CHAR' })),
      retry: { windowMs: 60_000, baseMs: 100, maxMs: 1000 }, concurrency: 8, sinkConcurrency: 2, partnerConcurrency: 8, deadLetterMax: 2,
      metrics, logger: createLogger('silent'),
    });
    try {
      await d.enqueue([delivery('e1'), delivery('e2'), delivery('e3')]);
      await jest.advanceTimersByTimeAsync(10);
      // Let any rejection surface as unhandled before asserting there was none.
      jest.useRealTimers();
      await new Promise((r) => setImmediate(r));
      expect(outcomes).toEqual(['dead_lettered', 'dead_lettered', 'dead_lettered']);
      // Bounded: only the last deadLetterMax are kept.
      expect(d.deadLetters.map((p) => p.d.event.id)).toEqual(['e2', 'e3']);
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
      await d.close();
    }
  });
});
