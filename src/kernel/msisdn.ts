export interface NumberingPlan {
  countryCode: string;
  nsnLength: number;
}

/** Turns any accepted form of a number into the international form; null when malformed. */
export type MsisdnNormaliser = (raw: string) => string | null;

/**
 * Accepted forms (CONTRACT §1.4): CC+NSN, +CC+NSN, 00CC+NSN, 0+NSN and the bare NSN.
 * An NSN never starts with 0 (0 is the national trunk prefix), which keeps the forms
 * unambiguous. The pattern is compiled once per plan, not per request.
 */
export function createMsisdnNormaliser(plan: NumberingPlan): MsisdnNormaliser {
  const nsn = `([1-9]\\d{${plan.nsnLength - 1}})`;
  const pattern = new RegExp(`^(?:(?:\\+|00)?${plan.countryCode}${nsn}|0?${nsn})$`);
  const cc = plan.countryCode;
  return (raw) => {
    if (raw.length > 20) return null;
    const m = pattern.exec(raw);
    if (!m) return null;
    return cc + (m[1] ?? m[2]);
  };
}

/** Keeps a number useful in logs without revealing it: 2557*****678. */
export function maskMsisdn(msisdn: string): string {
  if (msisdn.length <= 7) return '*'.repeat(msisdn.length);
  return msisdn.slice(0, 4) + '*'.repeat(msisdn.length - 7) + msisdn.slice(-3);
}
