import { uuidV7 } from '../../src/kernel/uuid-v7';

describe('uuidV7', () => {
  it('when an id is made, then it is an RFC 9562 version 7 UUID carrying the milliseconds', () => {
    const id = uuidV7(Date.UTC(2026, 10, 24, 1, 2, 3, 456));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.UTC(2026, 10, 24, 1, 2, 3, 456));
  });

  it('when ids are made in sequence, then they sort by time and never repeat', () => {
    const ids = Array.from({ length: 10_000 }, (_, i) => uuidV7(1_700_000_000_000 + Math.floor(i / 100)));
    expect(new Set(ids).size).toBe(ids.length);
    const byMs = ids.filter((_, i) => i % 100 === 0);
    expect([...byMs].sort()).toEqual(byMs);
  });
});
