/**
 * Reports the simulator's swaps to the service's POST /internal/events/sim-swap (CONTRACT §5),
 * as a real SIM-management system would: with the events token, retried a few times on
 * failure (the service answers 503 when it cannot store the events yet).
 */
export function swapReporter(url: string, token: string, log: (line: string) => void, attempts = 5): (msisdn: string) => void {
  return (msisdn) => {
    void (async () => {
      for (let i = 1; i <= attempts; i++) {
        try {
          const res = await fetch(url, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
            body: JSON.stringify({ msisdn }),
            signal: AbortSignal.timeout(5000),
            redirect: 'manual',
          });
          await res.text();
          if (res.ok) return;
          if (res.status < 500) {
            log(`swap report refused: HTTP ${res.status}`);
            return;
          }
        } catch {
          // network error or timeout: retried below
        }
        await new Promise((r) => setTimeout(r, 200 * 2 ** i));
      }
      log(`swap report failed after ${attempts} attempts`);
    })();
  };
}
