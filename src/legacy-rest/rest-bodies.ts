import { SUCCESS_DESC } from '../errors/domain-errors';
import { OffsetDateTimeFormatter } from '../kernel/offset-date-time';
import { KycResult, SimSwapResult, VerificationResult } from '../verification/results';

/** CONTRACT §1.1: exactly these keys, booleans as strings. */
export function successBody(result: VerificationResult, formatDate: OffsetDateTimeFormatter): object {
  switch (result.operation) {
    case 'kyc':
      return { code: '00000', desc: SUCCESS_DESC, result: kycResult(result.kyc) };
    case 'sim_swap':
      return { code: '00000', desc: SUCCESS_DESC, result: simSwapResult(result.simSwap, formatDate) };
    default: {
      const never: never = result;
      throw new Error(`unknown result ${JSON.stringify(never)}`);
    }
  }
}

function kycResult(r: KycResult): object {
  return { msisdn: r.msisdn, is_prepaid: String(r.isPrepaid), is_active: String(r.isActive), is_valid: String(r.isValid) };
}

function simSwapResult(r: SimSwapResult, formatDate: OffsetDateTimeFormatter): object {
  if (!r.simSwapped || r.simSwappedAtMs === undefined) return { msisdn: r.msisdn, sim_swapped: 'false' };
  return { msisdn: r.msisdn, sim_swapped: 'true', sim_swapped_dt: formatDate(new Date(r.simSwappedAtMs)) };
}
