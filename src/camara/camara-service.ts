import { OutOfRangeError } from './camara-errors';
import {
  MAX_AGE_DEFAULT_HOURS, msisdnOfPhone, parseCheckBody, parseRetrieveDateBody, parseTenureBody, subjectOf,
} from './camara-input';
import { NotSubscriberError } from '../errors/domain-errors';
import { InsufficientScopeError } from '../oauth/oauth-errors';
import { AuditRecorder } from '../audit/audit-recorder';
import { NumberingPlan } from '../verification/msisdn';
import { Operation } from '../partners/operation';
import { AccessGrant } from '../oauth/ports/access-tokens';
import { Clock } from '../kernel/clock';
import { HlrRecord, PaymentType, SimRecord } from '../verification/ports/upstreams';
import { VerificationService } from '../verification/verification-service';
import { ZonedCalendar } from '../kernel/zoned-date';

/** The three CAMARA operations (CONTRACT §7). */
export type CamaraOperation = 'retrieve-date' | 'check' | 'check-tenure';

/** Scopes that allow each operation (any one suffices), as the specs' security sections name them. */
export const CAMARA_SCOPES: Record<CamaraOperation, readonly string[]> = {
  'retrieve-date': ['sim-swap:retrieve-date', 'sim-swap'],
  check: ['sim-swap:check', 'sim-swap'],
  'check-tenure': ['kyc-tenure:check-tenure'],
};

/** The partner operation (registry word, rate limit, metrics label) each CAMARA operation belongs to. */
export const CAMARA_PARTNER_OPERATION: Record<CamaraOperation, Operation> = {
  'retrieve-date': 'sim_swap',
  check: 'sim_swap',
  'check-tenure': 'kyc',
};

export type ContractType = 'PAYG' | 'PAYM' | 'Business';

/** Every answer names the normalised msisdn it is about (for the request log and audit), never echoed to the caller. */
interface Subject {
  msisdn: string;
}

export interface SimChange extends Subject {
  /** The latest swap, else the current SIM's activation (ms); null when unknown or beyond the monitored period. */
  latestSimChangeMs: number | null;
  /** Days the operator keeps SIM changes, present when latestSimChangeMs is null because the change is older. */
  monitoredPeriodDays?: number;
}

export interface SimSwapCheck extends Subject { swapped: boolean }

export interface TenureCheck extends Subject {
  tenureDateCheck: boolean;
  contractType: ContractType;
}

export interface CamaraSettings {
  plan: NumberingPlan;
  /** SIM_SWAP_MONITORED_DAYS; undefined = unlimited history. */
  monitoredDays?: number;
  /** Calendar in TIMEZONE: where tenureDate starts, and which day is today. */
  calendar: ZonedCalendar;
}

export interface CamaraServiceDeps {
  verification: VerificationService;
  /** Every CAMARA verification about a well-formed number of ours leaves one audit record (CONTRACT §9). */
  audit: AuditRecorder;
  clock: Clock;
  settings: CamaraSettings;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

function contractTypeOf(paymentType: PaymentType): ContractType {
  switch (paymentType) {
    case 'prepaid': return 'PAYG';
    case 'postpaid': return 'PAYM';
    case 'business': return 'Business';
    default: {
      const never: never = paymentType;
      throw new Error(`unknown payment type ${String(never)}`);
    }
  }
}

/**
 * SIM Swap 2.1.0 and KYC Tenure 0.2.0 over the one verification service: its cache,
 * single-flight, breakers and rate limits. The checks run in the order the specs imply:
 * scope (403), body (400), identifier and number plan (422), partner admission (403/429), subscriber (404).
 * From partner admission on, the outcome is audited (interface `camara`, the token's purpose).
 */
export class CamaraService {
  constructor(private readonly deps: CamaraServiceDeps) {}

  async retrieveDate(grant: AccessGrant, body: unknown, correlator: string): Promise<SimChange> {
    this.requireScope(grant, 'retrieve-date');
    const input = parseRetrieveDateBody(body);
    return this.tracked(grant, input.phoneNumber, 'retrieve-date', correlator, async (msisdn) => {
      const latest = await this.latestSimChange(msisdn);
      const days = this.deps.settings.monitoredDays;
      if (latest !== null && days !== undefined && this.deps.clock.nowMs() - latest > days * DAY_MS) {
        return { msisdn, latestSimChangeMs: null, monitoredPeriodDays: days };
      }
      return { msisdn, latestSimChangeMs: latest };
    });
  }

  async check(grant: AccessGrant, body: unknown, correlator: string): Promise<SimSwapCheck> {
    this.requireScope(grant, 'check');
    const input = parseCheckBody(body);
    const days = this.deps.settings.monitoredDays;
    const monitoredHours = days === undefined ? Infinity : days * 24;
    if (input.maxAge !== undefined && input.maxAge > monitoredHours) {
      throw new OutOfRangeError(`Check monitor period could not exceed local regulations (${days} days)`);
    }
    // The spec's default of 240 h, shortened to the monitored period when that is shorter.
    const maxAgeHours = input.maxAge ?? Math.min(MAX_AGE_DEFAULT_HOURS, monitoredHours);
    return this.tracked(grant, input.phoneNumber, 'check', correlator, async (msisdn) => {
      const latest = await this.latestSimChange(msisdn);
      // A new SIM activation (a new line, never swapped since) counts as a swap (sim-swap.yaml).
      return { msisdn, swapped: latest !== null && this.deps.clock.nowMs() - latest <= maxAgeHours * HOUR_MS };
    });
  }

  async checkTenure(grant: AccessGrant, body: unknown, correlator: string): Promise<TenureCheck> {
    this.requireScope(grant, 'check-tenure');
    const input = parseTenureBody(body);
    const { calendar } = this.deps.settings;
    if (input.tenureDate > calendar.dateAt(this.deps.clock.nowMs())) throw new OutOfRangeError('tenureDate must not be in the future');
    return this.tracked(grant, input.phoneNumber, 'check-tenure', correlator, async (msisdn) => {
      const rec = this.subscriber(await this.deps.verification.hlrFactsWithTenure(msisdn));
      const since = rec.activatedAtMs ?? null;
      return {
        msisdn,
        tenureDateCheck: since !== null && since <= calendar.startOfDayMs(input.tenureDate),
        contractType: contractTypeOf(rec.paymentType),
      };
    });
  }

  private requireScope(grant: AccessGrant, operation: CamaraOperation): void {
    if (!CAMARA_SCOPES[operation].some((s) => grant.scopes.has(s))) {
      throw new InsufficientScopeError(`the access token lacks the scope ${CAMARA_SCOPES[operation].join(' or ')}`, CAMARA_SCOPES[operation]);
    }
  }

  /**
   * The request's number as a normalised msisdn (422 before anything is recorded: no number of
   * ours was named), then, audited as one verification, the partner's admission (403/429) and the work.
   */
  private async tracked<T>(grant: AccessGrant, bodyPhone: string | undefined, operation: CamaraOperation, correlator: string,
    work: (msisdn: string) => Promise<T>): Promise<T> {
    const msisdn = msisdnOfPhone(subjectOf(grant.phoneNumber, bodyPhone), this.deps.settings.plan);
    const context = { interface: 'camara' as const, correlator, ...(grant.purpose === undefined ? {} : { purpose: grant.purpose }) };
    return this.deps.audit.track({ partner: grant.partner, context, operation, msisdn }, async () => {
      await this.deps.verification.admit(grant.partner, [CAMARA_PARTNER_OPERATION[operation]]);
      return work(msisdn);
    });
  }

  /**
   * retrieve-date's answer before the monitored period applies. The line must be a subscriber
   * that is not terminated (CONTRACT §7): both systems are asked, in parallel, from cache.
   */
  private async latestSimChange(msisdn: string): Promise<number | null> {
    const { verification } = this.deps;
    const [hlr, sim] = await Promise.all([verification.hlrFactsWithTenure(msisdn), verification.simFactsWithActivation(msisdn)]);
    this.subscriber(hlr);
    const s = this.simOf(sim);
    return s.lastSimSwapAtMs ?? s.simActivatedAtMs ?? null;
  }

  private subscriber(rec: HlrRecord | null): HlrRecord {
    if (rec === null || rec.status === 'terminated') throw new NotSubscriberError('the phone number is not associated with a subscriber');
    return rec;
  }

  private simOf(rec: SimRecord | null): SimRecord {
    if (rec === null) throw new NotSubscriberError('the phone number is not associated with a subscriber');
    return rec;
  }
}
