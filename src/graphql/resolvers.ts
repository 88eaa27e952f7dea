import { AuditRecorder } from '../audit/audit-recorder';
import { Clock } from '../kernel/clock';
import { boundedLookBackHours, simSwapLookBackTooLong } from '../verification/monitored-period';
import { MsisdnNormaliser } from '../kernel/msisdn';
import { OffsetDateTimeFormatter } from '../kernel/offset-date-time';
import { VerificationResult } from '../verification/results';
import { VerificationInput, validateMaxAge, validateMsisdn, validateTxnId } from '../verification/verification-input';
import { VerificationService } from '../verification/verification-service';
import { GraphqlContext } from './request-context';
import { validateArgument } from './graphql-errors';
import { dateTimeScalar, kycFields, simSwapFields } from './result-fields';
import { QueryResolvers, Resolvers } from './generated/resolvers-types';
import { verifyCustomers } from './verify-customers';
import { signals } from './signals';

export interface ResolverDeps {
  service: Pick<VerificationService, 'verify' | 'admit'>;
  normalise: MsisdnNormaliser;
  formatDate: OffsetDateTimeFormatter;
  /** One audit record per field answered (docs/audit.md). */
  audit: AuditRecorder;
  clock: Clock;
  /** SIM_SWAP_MAX_AGE_HOURS: the look-back when none is asked (shortened to a partner's monitored period). */
  defaultMaxAgeHours: number;
  /** schema.graphql's description of DateTime, served as written there. */
  dateTimeDescription?: string;
}

/**
 * A single field without txnId: permission and rate limit, then the per-request loader.
 * With txnId: the service's txn-guarded path, exactly as REST (claim, replay, conflict).
 */
async function single(deps: ResolverDeps, ctx: GraphqlContext, input: VerificationInput,
  viaLoader: () => Promise<VerificationResult>): Promise<VerificationResult> {
  const subject = {
    partner: ctx.partner, operation: input.operation, msisdn: input.msisdn, txnId: input.txnId, request: ctx.audit,
    context: { interface: 'graphql' as const, correlator: ctx.res.locals.correlator as string },
  };
  const answer = await deps.audit.track(subject, async () => {
    if (input.txnId === undefined) {
      await deps.service.admit(ctx.partner, [input.operation]);
      return { result: await viaLoader(), replayed: false };
    }
    return deps.service.verify(ctx.partner, input);
  }, (a) => a.replayed);
  if (answer.replayed) ctx.replayed = true;
  return answer.result;
}

function unexpected(result: VerificationResult): never {
  throw new Error(`service answered ${result.operation} to a different operation`);
}

/** Typed by the types generated from schema.graphql (codegen.ts): arguments in, result types out. */
export function createResolvers(deps: ResolverDeps): Resolvers {
  const Query: QueryResolvers = {
    // Validation order and rules follow REST: txn_id, then msisdn, then max_age.
    kyc: async (_parent, args, ctx) => {
      const txnId = validateArgument('txnId', 'txn_id', () => validateTxnId(args.txnId, false));
      const { raw, msisdn } = validateMsisdn(args.msisdn, deps.normalise);
      const input: VerificationInput = { operation: 'kyc', msisdnRaw: raw, msisdn, txnId };
      const result = await single(deps, ctx, input, async () =>
        ({ operation: 'kyc', kyc: await ctx.loaders.kyc.load(msisdn) }));
      return result.operation === 'kyc' ? kycFields(result.kyc, raw) : unexpected(result);
    },
    simSwap: async (_parent, args, ctx) => {
      const txnId = validateArgument('txnId', 'txn_id', () => validateTxnId(args.txnId, false));
      const { raw, msisdn } = validateMsisdn(args.msisdn, deps.normalise);
      const asked = validateArgument('maxAgeHours', 'max_age', () => validateMaxAge(args.maxAgeHours));
      // A partner's look-back ends at its monitored period, as on CAMARA SIM Swap (caller-view.ts).
      const maxAgeHours = boundedLookBackHours(asked, ctx.monitored.simSwapDays, deps.defaultMaxAgeHours, simSwapLookBackTooLong);
      const input: VerificationInput = { operation: 'sim_swap', msisdnRaw: raw, msisdn, txnId };
      if (maxAgeHours !== undefined) input.maxAgeHours = maxAgeHours;
      const result = await single(deps, ctx, input, async () =>
        ({ operation: 'sim_swap', simSwap: await ctx.loaders.simSwap.load({ msisdn, maxAgeHours }) }));
      return result.operation === 'sim_swap'
        ? simSwapFields(result.simSwap, raw, ctx.monitored.simSwapDays, deps.clock.nowMs()) : unexpected(result);
    },
    verifyCustomers: (_parent, args, ctx, info) => verifyCustomers(deps, args, ctx, info),
    signals: (_parent, args, ctx, info) => signals(deps, args, ctx, info),
  };
  return { Query, DateTime: dateTimeScalar(deps.formatDate, deps.dateTimeDescription) };
}
