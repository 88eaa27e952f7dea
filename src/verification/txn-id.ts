const TXN_ID = /^[A-Za-z0-9._:-]{1,25}$/;

/** CONTRACT §1.4: 1–25 characters of [A-Za-z0-9._:-]. */
export function isValidTxnId(value: string): boolean {
  return TXN_ID.test(value);
}
