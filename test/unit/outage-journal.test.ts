import { MemoryTxnStore } from '../../src/verification/state/memory-txn-store';
import { OutageJournal } from '../../src/verification/state/redis-outage-journal';
import { TxnClaim, TxnStore } from '../../src/verification/ports/state-store';

/** Records what a replay writes, as Redis would receive it. */
function recordingTarget(): { txns: TxnStore; writes: string[] } {
  const writes: string[] = [];
  const txns: TxnStore = {
    claim: async (key, fp, ttlS): Promise<TxnClaim> => { writes.push(`claim ${key} ${fp} ${ttlS}`); return { status: 'claimed' }; },
    complete: async (key, fp, outcome, ttlS) => { writes.push(`complete ${key} ${fp} ${outcome} ${ttlS}`); },
    release: async (key, fp) => { writes.push(`release ${key} ${fp}`); },
  };
  return { txns, writes };
}

describe('OutageJournal: one copy of each txn_id, read from the memory store', () => {
  let now: number;
  let memory: MemoryTxnStore;
  let journal: OutageJournal;
  beforeEach(() => {
    now = 1_000_000;
    memory = new MemoryTxnStore({ nowMs: () => now }, 100);
    journal = new OutageJournal(memory, 100, () => {});
  });

  it('when a txn_id was claimed then answered in memory, then the replay writes the answer with the TTL left', async () => {
    await memory.claim('p:T1', 'kyc|1|', 60);
    journal.claimed('p:T1');
    await memory.complete('p:T1', 'kyc|1|', '{"r":1}', 100);
    journal.completed('p:T1');
    now += 50_000;
    const { txns, writes } = recordingTarget();
    await journal.settleTxn('p:T1', txns, now);
    expect(writes).toEqual(['complete p:T1 kyc|1| {"r":1} 50']);
    expect(journal.size).toBe(0);
  });

  it('when a claim was released, then the release is replayed; when claimed again after it, then the new claim is', async () => {
    await memory.claim('p:T2', 'kyc|2|', 60);
    journal.claimed('p:T2');
    await memory.release('p:T2', 'kyc|2|');
    journal.released('p:T2', 'kyc|2|', now);
    const first = recordingTarget();
    await journal.settleTxn('p:T2', first.txns, now);
    expect(first.writes).toEqual(['release p:T2 kyc|2|']);

    journal.released('p:T3', 'kyc|3|', now);
    await memory.claim('p:T3', 'kyc|3b|', 60);
    journal.claimed('p:T3');
    const second = recordingTarget();
    await journal.settleTxn('p:T3', second.txns, now);
    expect(second.writes).toEqual(['claim p:T3 kyc|3b| 60']);
  });

  it('when the memory record has expired, then nothing is written and the entry goes', async () => {
    await memory.claim('p:T4', 'kyc|4|', 1);
    journal.claimed('p:T4');
    now += 2000;
    const { txns, writes } = recordingTarget();
    await journal.settleTxn('p:T4', txns, now);
    expect(writes).toEqual([]);
    expect(journal.size).toBe(0);
  });

  it('when entries are settled or cleared, then the bytes they were counted for are given back', async () => {
    journal.released('p:T5', 'kyc|5|', now);
    journal.claimed('p:T6');
    expect(journal.bytes).toBeGreaterThan(0);
    await journal.settleTxn('p:T5', recordingTarget().txns, now);
    await journal.settleTxn('p:T6', recordingTarget().txns, now);
    expect(journal.bytes).toBe(0);
    await memory.claim('p:T7', 'kyc|7|', 60);
    expect(memory.bytes).toBeGreaterThan(0);
    await memory.release('p:T7', 'kyc|7|');
    expect(memory.bytes).toBe(0);
  });
});
