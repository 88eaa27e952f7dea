/**
 * Concurrent calls for one key share the first caller's promise (CONTRACT §5 coalescing), but
 * only calls that start from the same version of the key: a caller that read the key after an
 * eviction (a SIM swap) saw a new version and starts its own call, rather than joining one that
 * began before the swap and may bring back the pre-swap answer.
 */
export class SingleFlight<T> {
  private readonly inFlight = new Map<string, Map<string | null, Promise<T>>>();

  /** Joins the call running for this key and version, or starts `work` as that call. */
  run(key: string, version: string | null, work: () => Promise<T>): Promise<T> {
    let flights = this.inFlight.get(key);
    const running = flights?.get(version);
    if (running) return running;
    if (!flights) {
      flights = new Map();
      this.inFlight.set(key, flights);
    }
    const own = flights;
    const p = work().finally(() => {
      if (own.get(version) === p) own.delete(version);
      if (own.size === 0 && this.inFlight.get(key) === own) this.inFlight.delete(key);
    });
    own.set(version, p);
    return p;
  }

  /** No later call joins a call for this key that is running now; those already waiting still get its result. */
  forget(key: string): void {
    this.inFlight.delete(key);
  }
}
