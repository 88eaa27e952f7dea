/**
 * Polls until check holds, or fails naming what was awaited: an e2e test waits for a state
 * (a queue drained, a store mode, a count reached), never for a guessed time, so it is as fast
 * as the machine allows and does not fail on a slow one.
 */
export async function until(check: () => Promise<boolean> | boolean, what: string, timeoutMs = 15_000, everyMs = 25): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`not reached in ${timeoutMs} ms: ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
