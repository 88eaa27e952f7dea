import { CamaraCallDeps, CamaraCaller, camaraCaller, requireScope } from '../camara/camara-call';
import { parseRetrieveDateBody } from '../camara/camara-input';
import { AccessGrant } from '../oauth/ports/access-tokens';
import { camaraApi } from '../partners/camara-apis';
import { Operation } from '../partners/operation';
import { SCOPES } from '../oauth/access-scopes';
import { CallForwardingService, HlrRecord } from '../verification/ports/upstreams';
import { activeForwardings } from '../verification/subscriber-facts';
import { CallForwardingListNotOfferedError } from './call-forwarding-errors';

/** The registry word both operations spend (permission, rate limit, metrics label, audit). */
export const CALL_FORWARDING_OPERATION: Operation = camaraApi('call-forwarding-signal').registryOperation;

/** call-forwarding-signal.yaml CallForwardingSignal: the active services, or `inactive` alone. */
export type CallForwardingState = CallForwardingService | 'inactive';

export interface ForwardingAnswer<T> {
  msisdn: string;
  value: T;
}

export interface CallForwardingServiceDeps {
  /** Subject, admission and audit: the shared CAMARA kit. */
  call: CamaraCallDeps;
  /** The HLR's facts with the forwarding field, from the verification core's cache (CONTRACT §11). */
  hlrFacts(msisdn: string): Promise<HlrRecord | null>;
  /** CALL_FORWARDING_LIST: false when the operator does not offer call-forwardings. */
  listOffered: boolean;
}

/**
 * CreateCallForwardingSignal: an optional phoneNumber and nothing else. Without one, and with a
 * token that names no phone number (two-legged, or an end user named otherwise), camaraCall
 * answers 422 MISSING_IDENTIFIER: the yaml's rule and the official scenario
 * `call_forwarding_signal_422.1_…_missing_phone_number`, which the same feature's
 * `400.2_empty_request_body` (400 for `{}` with a two-legged token) contradicts (docs/camara.md).
 */
function parseBody(body: unknown): string | undefined {
  // The same body as SIM Swap's retrieve-date: an optional E.164 phoneNumber, nothing else.
  return parseRetrieveDateBody(body).phoneNumber;
}

/** CAMARA Call Forwarding Signal 0.4.0 (CONTRACT §11) over the verification core's HLR facts. */
export class CallForwardingSignalService {
  /** Charged under the registry operation; audited as it plus the operation (`call_forwarding.call-forwardings`), so usage tells the two apart. */
  private readonly call: CamaraCaller<'unconditional-call-forwardings' | 'call-forwardings'>;

  constructor(private readonly deps: CallForwardingServiceDeps) {
    this.call = camaraCaller(deps.call, 'call-forwarding-signal');
  }

  /** unconditional-call-forwardings: whether calls are forwarded whatever the device's state. */
  async unconditional(grant: AccessGrant, body: unknown, correlator: string): Promise<ForwardingAnswer<boolean>> {
    requireScope(grant, [SCOPES.unconditionalCallForwardings]);
    const phoneNumber = parseBody(body);
    return this.call({ grant, phoneNumber, operation: 'unconditional-call-forwardings', correlator }, async (msisdn) => {
      const active = activeForwardings(await this.deps.hlrFacts(msisdn));
      return { msisdn, value: active.includes('unconditional') };
    });
  }

  /** call-forwardings: every active service, `["inactive"]` when there is none. */
  async all(grant: AccessGrant, body: unknown, correlator: string): Promise<ForwardingAnswer<CallForwardingState[]>> {
    requireScope(grant, [SCOPES.callForwardings]);
    if (!this.deps.listOffered) throw new CallForwardingListNotOfferedError('this operator does not offer the list of call forwarding services');
    const phoneNumber = parseBody(body);
    return this.call({ grant, phoneNumber, operation: 'call-forwardings', correlator }, async (msisdn) => {
      const active = activeForwardings(await this.deps.hlrFacts(msisdn));
      return { msisdn, value: active.length === 0 ? ['inactive'] : [...active] };
    });
  }
}
