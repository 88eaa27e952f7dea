import { repoRoot } from '../kernel/repo-paths';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { parseSubscriber, SimSubscriber } from './subscriber';

/**
 * Reads `{"subscribers":[...]}`. Besides RFC 3339 or null, `lastSimSwapAt` may be
 * `now-<N><m|h|d>` (e.g. `now-3h`), resolved against `now` at load time, so a demo fixture
 * that says "swapped three hours ago" stays true whenever it is run.
 */
export function loadFixtures(file: string, now: Date = new Date()): SimSubscriber[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`fixtures ${file}: cannot read (${(err as Error).message})`, { cause: err });
  }
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new Error(`fixtures ${file}: not valid JSON (${(err as Error).message})`, { cause: err });
  }
  const list = (doc as { subscribers?: unknown } | null)?.subscribers;
  if (typeof doc !== 'object' || doc === null || !Array.isArray(list)) {
    throw new Error(`fixtures ${file}: expected {"subscribers":[...]}`);
  }
  const seen = new Set<string>();
  return list.map((raw, i) => {
    const where = `subscribers[${i}]`;
    let s: SimSubscriber;
    try {
      s = parseSubscriber(raw, { now, where });
    } catch (err) {
      throw new Error(`fixtures ${file}: ${(err as Error).message}`, { cause: err });
    }
    // A duplicate would make the answer depend on file order; refuse rather than guess.
    if (seen.has(s.msisdn)) throw new Error(`fixtures ${file}: ${where}.msisdn ${s.msisdn} appears twice`);
    seen.add(s.msisdn);
    return s;
  });
}

/** The demo fixture in the repository, wherever the code runs from. */
export function defaultFixturesPath(): string {
  return path.join(repoRoot(), 'fixtures', 'demo-subscribers.json');
}
