/** Time as the service sees it; tests move it, production reads the system clock. */
export interface Clock {
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };
