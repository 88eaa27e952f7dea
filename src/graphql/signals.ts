import { GraphQLResolveInfo } from 'graphql';
import { AuditRecorder } from '../audit/audit-recorder';
import { BadRequestError } from '../errors/domain-errors';
import { graphqlFailureOf } from '../errors/error-lookup';
import { Operation } from '../partners/operation';
import { MsisdnNormaliser } from '../kernel/msisdn';
import { HlrRecord, SimRecord } from '../verification/ports/upstreams';
import { activeForwardings, kycFlags, latestDeviceChangeOf, latestSimChangeOf, subscriberOf } from '../verification/subscriber-facts';
import { validateMsisdn } from '../verification/verification-input';
import { VerificationService } from '../verification/verification-service';
import { GraphqlContext } from './request-context';
import { CONTRACT_TYPES, changeFields } from './result-fields';
import { MonitoredPeriods } from './caller-view';
import { Clock } from '../kernel/clock';
import { MAX_BATCH, lookupSlots, recordBatchRefusal, selectedFieldNames } from './verify-customers';
import {
  CallForwardingService, QuerySignalsArgs, Signal, SignalError, Signals,
} from './generated/resolvers-types';

export interface SignalsDeps {
  service: Pick<VerificationService, 'admit'>;
  normalise: MsisdnNormaliser;
  audit: AuditRecorder;
  clock: Clock;
}

type Upstream = 'hlr' | 'sim';

/**
 * Each signal, the upstreams it reads and the registry operation that permits, charges and
 * audits it. SIM swap reads the HLR too: only a subscriber has a SIM change to tell, as CAMARA
 * SIM Swap says (verification/subscriber-facts.ts).
 */
const SIGNALS = {
  simSwap: { signal: Signal.SimSwap, operation: 'sim_swap', upstreams: ['hlr', 'sim'] },
  deviceSwap: { signal: Signal.DeviceSwap, operation: 'device_swap', upstreams: ['hlr'] },
  callForwarding: { signal: Signal.CallForwarding, operation: 'call_forwarding', upstreams: ['hlr'] },
  tenure: { signal: Signal.Tenure, operation: 'kyc', upstreams: ['hlr'] },
  kyc: { signal: Signal.Kyc, operation: 'kyc', upstreams: ['hlr'] },
} as const satisfies Record<string, { signal: Signal; operation: Operation; upstreams: readonly Upstream[] }>;

type SignalField = keyof typeof SIGNALS;
const FIELDS = Object.keys(SIGNALS) as SignalField[];

const FORWARDING: Readonly<Record<string, CallForwardingService>> = {
  unconditional: CallForwardingService.Unconditional,
  conditional_busy: CallForwardingService.ConditionalBusy,
  conditional_not_reachable: CallForwardingService.ConditionalNotReachable,
  conditional_no_answer: CallForwardingService.ConditionalNoAnswer,
};

const dateOrNull = (ms: number | null | undefined): Date | null => (ms === null || ms === undefined ? null : new Date(ms));

/** The legacy interfaces' wording of "not a subscriber". */
const NOT_SUBSCRIBER = 'msisdn is not a subscriber';

/** What the caller may see of change dates: its monitored periods (none for an internal app) and now. */
interface View {
  monitored: MonitoredPeriods;
  nowMs: number;
}

/** One signal's value from the records; throws the DomainError that becomes its SignalError. */
function valueOf(field: SignalField, hlr: () => HlrRecord | null, sim: () => SimRecord | null, view: View): Signals[SignalField] {
  switch (field) {
    case 'simSwap': {
      const seen = changeFields(latestSimChangeOf(hlr(), sim(), NOT_SUBSCRIBER), view.monitored.simSwapDays, view.nowMs);
      return { latestSimChangeAt: seen.at, monitoredPeriod: seen.monitoredPeriod };
    }
    case 'deviceSwap': {
      const seen = changeFields(latestDeviceChangeOf(subscriberOf(hlr(), NOT_SUBSCRIBER)), view.monitored.deviceSwapDays, view.nowMs);
      return { latestDeviceChangeAt: seen.at, monitoredPeriod: seen.monitoredPeriod };
    }
    case 'callForwarding': {
      const active = activeForwardings(hlr());
      return { active: active.map((s) => FORWARDING[s]), unconditional: active.includes('unconditional') };
    }
    case 'tenure': {
      const rec = subscriberOf(hlr(), NOT_SUBSCRIBER);
      return { since: dateOrNull(rec.activatedAtMs), contractType: CONTRACT_TYPES[rec.paymentType] };
    }
    case 'kyc':
      return kycFlags(hlr());
    default: {
      const never: never = field;
      throw new Error(`unknown signal ${String(never)}`);
    }
  }
}

/** A domain failure is that signal's error; anything else fails the field (9999, logged). */
function signalError(signal: Signal | null, err: unknown): SignalError {
  const failure = graphqlFailureOf(err);
  if (failure.unexpected) throw err;
  return { signal, code: failure.code, desc: failure.desc };
}

type Loaded<T> = { ok: true; value: T } | { ok: false; error: unknown };

async function load<T>(p: Promise<T>): Promise<Loaded<T>> {
  return p.then((value) => ({ ok: true as const, value }), (error: unknown) => ({ ok: false as const, error }));
}

/**
 * One number: each upstream asked once through the request's loaders (so a number sent twice
 * is asked once), then every selected signal computed from those records. One audit record
 * per registry operation asked, as verifyCustomers does per fact.
 */
async function signalsOf(raw: string, wanted: readonly SignalField[], deps: SignalsDeps, ctx: GraphqlContext): Promise<Signals> {
  const item: Signals = { msisdn: raw, simSwap: null, deviceSwap: null, callForwarding: null, tenure: null, kyc: null, errors: [] };
  let msisdn: string;
  try {
    msisdn = validateMsisdn(raw, deps.normalise).msisdn;
  } catch (err) {
    return { ...item, errors: [signalError(null, err)] };
  }
  const needs = (upstream: Upstream) => wanted.some((f) => (SIGNALS[f].upstreams as readonly Upstream[]).includes(upstream));
  const [hlr, sim] = await Promise.all([
    needs('hlr') ? load(ctx.loaders.hlr.load(msisdn)) : undefined,
    needs('sim') ? load(ctx.loaders.sim.load(msisdn)) : undefined,
  ]);
  const record = <T>(r: Loaded<T> | undefined): T => {
    if (!r) throw new Error('signal computed without its upstream record');
    if (!r.ok) throw r.error;
    return r.value;
  };
  const failures = new Map<Operation, unknown>();
  const view = { monitored: ctx.monitored, nowMs: deps.clock.nowMs() };
  for (const field of wanted) {
    try {
      (item as Record<SignalField, unknown>)[field] = valueOf(field, () => record(hlr), () => record(sim), view);
    } catch (err) {
      item.errors.push(signalError(SIGNALS[field].signal, err));
      if (!failures.has(SIGNALS[field].operation)) failures.set(SIGNALS[field].operation, err);
    }
  }
  const context = { interface: 'graphql' as const, correlator: ctx.res.locals.correlator as string };
  await Promise.all(operationsOf(wanted).map((operation) => {
    const subject = { partner: ctx.partner, context, operation, msisdn };
    const err = failures.get(operation);
    return err === undefined ? deps.audit.track(subject, () => Promise.resolve()) : deps.audit.failed(subject, err);
  }));
  return item;
}

function operationsOf(wanted: readonly SignalField[]): Operation[] {
  return [...new Set(wanted.map((f) => SIGNALS[f].operation))];
}

/**
 * signals: the whole request fails only for what is wrong with the request (too many numbers,
 * permission, rate limit); each number's and each signal's problem is its own. Permission is
 * checked once per registry operation selected; the rate limit charges one token per number
 * and operation, all at once, as verifyCustomers does (docs/decisions.md).
 */
export async function signals(deps: SignalsDeps, args: QuerySignalsArgs, ctx: GraphqlContext, info: GraphQLResolveInfo): Promise<Signals[]> {
  if (args.msisdns.length > MAX_BATCH) {
    throw new BadRequestError(`signals takes at most ${MAX_BATCH} msisdns, got ${args.msisdns.length}`);
  }
  const selected = selectedFieldNames(info);
  const wanted = FIELDS.filter((f) => selected.has(f));
  const operations = operationsOf(wanted);
  deps.audit.admit();
  try {
    if (operations.length > 0) await deps.service.admit(ctx.partner, operations, args.msisdns.length);
  } catch (err) {
    await recordBatchRefusal(deps, ctx, 'signals', args.msisdns, err);
    throw err;
  }
  return Promise.all(args.msisdns.map((raw) => lookupSlots(() => signalsOf(raw, wanted, deps, ctx))));
}
