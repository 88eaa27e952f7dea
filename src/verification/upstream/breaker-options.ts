/** How a circuit breaker trips and recovers (one per upstream). */
export interface BreakerOptions {
  errorThresholdPercentage: number;
  /** Calls needed in the window before the error ratio may open the circuit. */
  volumeThreshold: number;
  windowMs: number;
  resetTimeoutMs: number;
}

/** The BREAKER_* settings, the same for every upstream. */
export function breakerOptionsOf(c: {
  BREAKER_ERROR_THRESHOLD_PERCENT: number; BREAKER_VOLUME_THRESHOLD: number; BREAKER_WINDOW_MS: number; BREAKER_RESET_TIMEOUT_MS: number;
}): BreakerOptions {
  return {
    errorThresholdPercentage: c.BREAKER_ERROR_THRESHOLD_PERCENT,
    volumeThreshold: c.BREAKER_VOLUME_THRESHOLD,
    windowMs: c.BREAKER_WINDOW_MS,
    resetTimeoutMs: c.BREAKER_RESET_TIMEOUT_MS,
  };
}
