import {
  GraphQLIncludeDirective, GraphQLResolveInfo, GraphQLSkipDirective, Kind, SelectionNode, SelectionSetNode, getDirectiveValues,
} from 'graphql';
import pLimit from 'p-limit';
import { AuditRecorder, AuditRequest, AuditSubject } from '../audit/audit-recorder';
import { BadRequestError } from '../errors/domain-errors';
import { graphqlFailureOf } from '../errors/error-lookup';
import { MsisdnNormaliser } from '../kernel/msisdn';
import { LegacyOperation } from '../partners/operation';
import { validateMaxAge, validateMsisdn } from '../verification/verification-input';
import { boundedLookBackHours, simSwapLookBackTooLong } from '../verification/monitored-period';
import { Clock } from '../kernel/clock';
import { VerificationService } from '../verification/verification-service';
import { GraphqlContext } from './request-context';
import { validateArgument } from './graphql-errors';
import { kycFields, simSwapFields } from './result-fields';
import { CustomerVerification as CustomerVerificationFields, QueryVerifyCustomersArgs as VerifyCustomersArgs, VerificationError as VerificationErrorFields } from './generated/resolvers-types';

/** CONTRACT §2: a batch holds at most this many numbers. */
export const MAX_BATCH = 100;

/**
 * Numbers of all GraphQL batches being verified at once, per process; the rest wait their turn.
 * Unbounded, 32 batches of 50 put 1,600 lookups (with their audit closures, loader entries,
 * Redis commands and result objects) in flight together: most of it outlives a young-generation
 * collection, is promoted, and the old generation swelled to 300 MB of RSS (docs/performance.md,
 * "Memory"). Two full batches at a time keep the Redis pipeline as full as a batch needs.
 */
export const BATCH_LOOKUPS_IN_FLIGHT = 200;
/** Shared by every batch query (verifyCustomers, signals): the bound is on the process's lookups, not one query's. */
export const lookupSlots = pLimit(BATCH_LOOKUPS_IN_FLIGHT);

export interface VerifyCustomersDeps {
  service: Pick<VerificationService, 'admit'>;
  normalise: MsisdnNormaliser;
  audit: AuditRecorder;
  clock: Clock;
  /** SIM_SWAP_MAX_AGE_HOURS: the look-back when none is asked (shortened to a partner's monitored period). */
  defaultMaxAgeHours: number;
}

interface Wanted {
  kyc: boolean;
  simSwap: boolean;
}

type Settled<T> = { ok: true; value: T } | { ok: false; error: unknown };

function settle<T>(p: Promise<T>): Promise<Settled<T>> {
  return p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));
}

/**
 * Field names selected under this field, through fragments and honouring @skip/@include,
 * so a batch fetches (and is permitted and charged for) only the facts the caller asked for.
 */
export function selectedFieldNames(info: GraphQLResolveInfo): Set<string> {
  const names = new Set<string>();
  const included = (node: SelectionNode): boolean =>
    getDirectiveValues(GraphQLSkipDirective, node, info.variableValues)?.if !== true &&
    getDirectiveValues(GraphQLIncludeDirective, node, info.variableValues)?.if !== false;
  const visit = (set: SelectionSetNode | undefined): void => {
    for (const node of set?.selections ?? []) {
      if (!included(node)) continue;
      switch (node.kind) {
        case Kind.FIELD:
          names.add(node.name.value);
          break;
        case Kind.INLINE_FRAGMENT:
          visit(node.selectionSet);
          break;
        case Kind.FRAGMENT_SPREAD:
          // Validation has already refused unknown fragments and fragment cycles.
          visit(info.fragments[node.name.value]?.selectionSet);
          break;
        default: {
          const never: never = node;
          throw new Error(`unknown selection ${JSON.stringify(never)}`);
        }
      }
    }
  };
  for (const field of info.fieldNodes) visit(field.selectionSet);
  return names;
}

function auditSubject(ctx: GraphqlContext, operation: string, msisdn: string): AuditSubject & { request: AuditRequest } {
  return { partner: ctx.partner, operation, msisdn, request: ctx.audit, context: { interface: 'graphql', correlator: ctx.res.locals.correlator as string } };
}

/**
 * A batch refused as a whole (permission, rate limit, a cost over the burst) before any number
 * was looked up leaves one record for the request (CONTRACT §2), under the batch's name and its
 * first well-formed number (none: no record, as for a 400), never one per number: 100 numbers
 * used to write 400 refusal records, and a partner refused everything could fill the trail.
 */
export async function recordBatchRefusal(deps: { audit: AuditRecorder; normalise: MsisdnNormaliser }, ctx: GraphqlContext,
  field: 'verifyCustomers' | 'signals', msisdns: readonly string[], err: unknown): Promise<void> {
  for (const raw of msisdns) {
    const msisdn = deps.normalise(raw);
    if (msisdn !== null) return deps.audit.refused(auditSubject(ctx, field, msisdn), err);
  }
}

/** A domain failure is that number's answer; anything else fails the field (9999, logged). */
function itemError(err: unknown): VerificationErrorFields {
  const failure = graphqlFailureOf(err);
  if (failure.unexpected) throw err;
  return { code: failure.code, desc: failure.desc };
}

async function verifyOne(raw: string, wanted: Wanted, maxAgeHours: number | undefined,
  deps: VerifyCustomersDeps, ctx: GraphqlContext): Promise<CustomerVerificationFields> {
  const item: CustomerVerificationFields = { msisdn: raw, kyc: null, simSwap: null, error: null };
  let msisdn: string;
  try {
    msisdn = validateMsisdn(raw, deps.normalise).msisdn;
  } catch (err) {
    return { ...item, error: itemError(err) };
  }
  // One audit record per number and operation asked: an item with both facts is two lookups.
  const subject = (operation: 'kyc' | 'sim_swap') => auditSubject(ctx, operation, msisdn);
  const [kyc, sim] = await Promise.all([
    wanted.kyc ? settle(deps.audit.track(subject('kyc'), () => ctx.loaders.kyc.load(msisdn))) : undefined,
    wanted.simSwap ? settle(deps.audit.track(subject('sim_swap'), () => ctx.loaders.simSwap.load({ msisdn, maxAgeHours }))) : undefined,
  ]);
  if (kyc?.ok) item.kyc = kycFields(kyc.value, raw);
  if (sim?.ok) item.simSwap = simSwapFields(sim.value, raw, ctx.monitored.simSwapDays, deps.clock.nowMs());
  // The first failure, KYC before SIM swap: e.g. a non-subscriber has all-false KYC and
  // this error from SIM swap, as its two REST answers would say.
  for (const r of [kyc, sim]) {
    if (r && !r.ok) {
      item.error = itemError(r.error);
      break;
    }
  }
  return item;
}

/**
 * verifyCustomers: the whole request fails only for what is wrong with the request (too many
 * numbers, bad maxAgeHours, permission, rate limit); each number's problem is its own item.
 * Permission is checked once per operation selected; the rate limit charges one token per
 * number and operation, all at once, and never more than the burst (docs/decisions.md), so a
 * batch is no way around a partner's limit.
 */
export async function verifyCustomers(deps: VerifyCustomersDeps, args: VerifyCustomersArgs,
  ctx: GraphqlContext, info: GraphQLResolveInfo): Promise<CustomerVerificationFields[]> {
  if (args.msisdns.length > MAX_BATCH) {
    throw new BadRequestError(`verifyCustomers takes at most ${MAX_BATCH} msisdns, got ${args.msisdns.length}`);
  }
  const asked = validateArgument('maxAgeHours', 'max_age', () => validateMaxAge(args.maxAgeHours));
  // A partner's look-back ends at its monitored period, as on CAMARA SIM Swap (caller-view.ts).
  const maxAgeHours = boundedLookBackHours(asked, ctx.monitored.simSwapDays, deps.defaultMaxAgeHours, simSwapLookBackTooLong);
  const selected = selectedFieldNames(info);
  const wanted: Wanted = { kyc: selected.has('kyc'), simSwap: selected.has('simSwap') };
  const operations: LegacyOperation[] = [];
  if (wanted.kyc) operations.push('kyc');
  if (wanted.simSwap) operations.push('sim_swap');
  deps.audit.admit();
  try {
    // One charge for both halves: a refusal never costs the tokens of the half already admitted.
    if (operations.length > 0) await deps.service.admit(ctx.partner, operations, args.msisdns.length);
  } catch (err) {
    await recordBatchRefusal(deps, ctx, 'verifyCustomers', args.msisdns, err);
    throw err;
  }
  return Promise.all(args.msisdns.map((raw) => lookupSlots(() => verifyOne(raw, wanted, maxAgeHours, deps, ctx))));
}
