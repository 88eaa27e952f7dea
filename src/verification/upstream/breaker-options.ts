/** How a circuit breaker trips and recovers (one per upstream). */
export interface BreakerOptions {
  errorThresholdPercentage: number;
  /** Calls needed in the window before the error ratio may open the circuit. */
  volumeThreshold: number;
  windowMs: number;
  resetTimeoutMs: number;
}
