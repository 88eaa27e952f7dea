import { GraphQLError, GraphQLScalarType, Kind } from 'graphql';
import { OffsetDateTimeFormatter } from '../kernel/offset-date-time';
import { parseRfc3339 } from '../kernel/rfc3339';
import { KycResult, SimSwapResult } from '../verification/results';
import { PaymentType } from '../verification/ports/upstreams';
import { monitoredChange } from '../verification/monitored-period';
import { contractTypeOf } from '../verification/subscriber-facts';
import { ContractType, Kyc, SimSwap } from './generated/resolvers-types';

/** GraphQL's enum member for each CAMARA contract type; which one a subscriber has is decided in subscriber-facts.ts. */
const CONTRACT_ENUM: Readonly<Record<ReturnType<typeof contractTypeOf>, ContractType>> = {
  PAYG: ContractType.Payg,
  PAYM: ContractType.Paym,
  Business: ContractType.Business,
};

export const CONTRACT_TYPES: Readonly<Record<PaymentType, ContractType>> = {
  prepaid: CONTRACT_ENUM[contractTypeOf('prepaid')],
  postpaid: CONTRACT_ENUM[contractTypeOf('postpaid')],
  business: CONTRACT_ENUM[contractTypeOf('business')],
};

const dateOrNull = (ms: number | null | undefined): Date | null => (ms === null || ms === undefined ? null : new Date(ms));

/**
 * KYC facts as GraphQL shows them: real booleans, msisdn as the caller spelled it, and the
 * tenure facts of CAMARA KYC Tenure (null where unknown, e.g. a replay stored before they existed).
 */
export function kycFields(r: KycResult, msisdnRaw: string): Kyc {
  return {
    msisdn: msisdnRaw, isPrepaid: r.isPrepaid, isActive: r.isActive, isValid: r.isValid,
    tenureSince: r.isValid ? dateOrNull(r.tenureSinceMs) : null,
    contractType: r.isValid && r.paymentType !== undefined ? CONTRACT_TYPES[r.paymentType] : null,
  };
}

/**
 * A change's date as the caller may see it (caller-view.ts): older than the caller's monitored
 * period (`days`), null with the period, as CAMARA's retrieve-date answers.
 */
export function changeFields(latestMs: number | null | undefined, days: number | undefined, nowMs: number): { at: Date | null; monitoredPeriod: number | null } {
  const seen = monitoredChange(latestMs ?? null, days, nowMs);
  return { at: dateOrNull(seen.latestMs), monitoredPeriod: seen.monitoredPeriodDays ?? null };
}

/**
 * SIM-swap facts; the instant is present exactly when REST would send sim_swapped_dt (the
 * look-back already lies within a partner's monitored period), the latest change as the caller may see it.
 */
export function simSwapFields(r: SimSwapResult, msisdnRaw: string, monitoredDays: number | undefined, nowMs: number): SimSwap {
  const swapped = r.simSwapped && r.simSwappedAtMs !== undefined;
  const latest = changeFields(r.latestSimChangeMs, monitoredDays, nowMs);
  return {
    msisdn: msisdnRaw, simSwapped: swapped, simSwappedAt: swapped ? new Date(r.simSwappedAtMs as number) : null,
    latestSimChangeAt: latest.at, monitoredPeriod: latest.monitoredPeriod,
  };
}

function parseDateTime(value: unknown): Date {
  const ms = parseRfc3339(value);
  if (ms === undefined) throw new GraphQLError('DateTime must be an ISO 8601 date-time with an offset, e.g. 2026-11-20T11:15:00+03:00');
  return new Date(ms);
}

/**
 * DateTime renders with the same formatter as REST's sim_swapped_dt, in the configured
 * TIMEZONE, so both interfaces print one instant identically (never `Z`). The description is
 * schema.graphql's: the scalar's own, even left out, replaces the file's in the served schema.
 */
export function dateTimeScalar(formatDate: OffsetDateTimeFormatter, description: string | undefined): GraphQLScalarType<Date, string> {
  return new GraphQLScalarType<Date, string>({
    name: 'DateTime',
    description,
    serialize(value) {
      if (value instanceof Date && !Number.isNaN(value.getTime())) return formatDate(value);
      throw new GraphQLError('DateTime cannot represent a value that is not a date');
    },
    parseValue: parseDateTime,
    parseLiteral(ast) {
      if (ast.kind !== Kind.STRING) throw new GraphQLError('DateTime must be a string', { nodes: [ast] });
      return parseDateTime(ast.value);
    },
  });
}
