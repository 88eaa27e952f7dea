import { PHONE_NUMBER } from '../../camara/camara-input';
import { BadRequestError } from '../../errors/domain-errors';
import { parseRfc3339 } from '../../kernel/rfc3339';
import { InvalidCredentialError, InvalidProtocolError, InvalidTokenTypeError } from './subscription-errors';
import { ACCESS_TOKEN_END_LEAD_MS, SWAPPED, SinkCredential } from './subscription';

/*
 * The subscription request (sim-swap-subscriptions.yaml SubscriptionRequest). Unknown fields
 * are ignored, as the schema allows them (0.3.0 defines no `initialEvent`: one sent is ignored).
 */

export interface SubscriptionRequest {
  sink: string;
  credential?: SinkCredential;
  types: string[];
  phoneNumber?: string;
  subscriptionExpireTime?: string;
  expiresAtMs?: number;
  maxEvents?: number;
}

const MAX_TEXT = 4096;
/** RFC 6750 §2.1 b64token (RFC 7235 token68): what may follow `Bearer `. */
const TOKEN68 = /^[A-Za-z0-9\-._~+/]+=*$/;
/** Printable Latin-1: no C0 or C1 control characters, DEL, nor anything above U+00FF. */
const BASIC_TEXT = /^[\u0020-\u007e\u00a0-\u00ff]+$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function field(body: Record<string, unknown>, name: string): unknown {
  return Object.prototype.hasOwnProperty.call(body, name) ? body[name] : undefined;
}

function text(body: Record<string, unknown>, name: string, at: string): string {
  const v = field(body, name);
  if (typeof v !== 'string' || v.length === 0 || v.length > MAX_TEXT) throw new BadRequestError(`${at}${name} must be a non-empty string`);
  return v;
}

/** An RFC 3339 date-time (the shared parser): its instant, or 400 INVALID_ARGUMENT naming the field. */
export function parseDateTime(value: unknown, name: string): number {
  const ms = parseRfc3339(value);
  if (ms === undefined) throw new BadRequestError(`${name} must be a real RFC 3339 date-time with a time zone`);
  return ms;
}

function credential(value: unknown, nowMs: number): SinkCredential {
  if (!isPlainObject(value)) throw new BadRequestError('sinkCredential must be an object');
  const type = field(value, 'credentialType');
  if (typeof type !== 'string') throw new BadRequestError('sinkCredential.credentialType is required');
  switch (type) {
    case 'PLAIN': {
      const identifier = text(value, 'identifier', 'sinkCredential.');
      const secret = text(value, 'secret', 'sinkCredential.');
      // Basic splits user and password at the first colon (RFC 7617 §2): a colon in the
      // identifier would reach the sink as another user.
      if (identifier.includes(':')) throw new BadRequestError('sinkCredential.identifier must not contain ":"');
      if (!BASIC_TEXT.test(identifier)) throw new BadRequestError('sinkCredential.identifier must be printable Latin-1 text without control characters');
      if (!BASIC_TEXT.test(secret)) throw new BadRequestError('sinkCredential.secret must be printable Latin-1 text without control characters');
      return { credentialType: 'PLAIN', identifier, secret };
    }
    case 'ACCESSTOKEN': {
      const tokenType = field(value, 'accessTokenType');
      if (tokenType !== 'bearer') throw new InvalidTokenTypeError('Only bearer token is supported');
      const accessToken = text(value, 'accessToken', 'sinkCredential.');
      // Sent as `Bearer <token>`: a character Node refuses in a header value would fail every delivery.
      if (!TOKEN68.test(accessToken)) throw new BadRequestError('sinkCredential.accessToken must be a bearer token68 (A-Z a-z 0-9 - . _ ~ + / then optional =)');
      const expires = field(value, 'accessTokenExpiresUtc');
      // The subscription ends, and says so with this token, a minute before it expires.
      if (parseDateTime(expires, 'sinkCredential.accessTokenExpiresUtc') <= nowMs + ACCESS_TOKEN_END_LEAD_MS) {
        throw new BadRequestError(`sinkCredential.accessTokenExpiresUtc must be more than ${ACCESS_TOKEN_END_LEAD_MS / 1000} s in the future`);
      }
      return { credentialType: 'ACCESSTOKEN', accessToken, accessTokenExpiresUtc: expires as string, accessTokenType: 'bearer' };
    }
    default:
      throw new InvalidCredentialError('Only Access token (ACCESSTOKEN) and PLAIN credentials are supported');
  }
}

/** Parses the body; expiry against nowMs (a time in the past is INVALID_ARGUMENT, as the .feature says). */
export function parseSubscriptionRequest(body: unknown, nowMs: number): SubscriptionRequest {
  if (!isPlainObject(body)) throw new BadRequestError('the request body must be a JSON object');
  const protocol = field(body, 'protocol');
  if (protocol === undefined) throw new BadRequestError('protocol is required');
  if (protocol !== 'HTTP') throw new InvalidProtocolError('Only HTTP is supported');
  const sink = field(body, 'sink');
  if (typeof sink !== 'string' || sink.length === 0) throw new BadRequestError('sink is required and must be a URL');
  let url: URL;
  try { url = new URL(sink); } catch { throw new BadRequestError('sink must be an absolute URL'); }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new BadRequestError('sink must be an https URL');
  if (url.username || url.password) throw new BadRequestError('sink must not carry credentials; use sinkCredential');
  const types = field(body, 'types');
  if (!Array.isArray(types) || types.length !== 1 || types[0] !== SWAPPED) {
    throw new BadRequestError(`types must be ["${SWAPPED}"]`);
  }
  const config = field(body, 'config');
  if (!isPlainObject(config)) throw new BadRequestError('config is required and must be an object');
  const detail = field(config, 'subscriptionDetail');
  if (!isPlainObject(detail)) throw new BadRequestError('config.subscriptionDetail is required and must be an object');
  const out: SubscriptionRequest = { sink, types: [SWAPPED] };
  const phone = field(detail, 'phoneNumber');
  if (phone !== undefined) {
    if (typeof phone !== 'string' || !PHONE_NUMBER.test(phone)) throw new BadRequestError('phoneNumber must be an E.164 number with a leading + (^\\+[1-9][0-9]{4,14}$)');
    out.phoneNumber = phone;
  }
  const expire = field(config, 'subscriptionExpireTime');
  if (expire !== undefined) {
    const ms = parseDateTime(expire, 'config.subscriptionExpireTime');
    if (ms <= nowMs) throw new BadRequestError('config.subscriptionExpireTime must be in the future');
    out.subscriptionExpireTime = expire as string;
    out.expiresAtMs = ms;
  }
  const max = field(config, 'subscriptionMaxEvents');
  if (max !== undefined) {
    if (typeof max !== 'number' || !Number.isInteger(max) || max < 1) throw new BadRequestError('config.subscriptionMaxEvents must be an integer of at least 1');
    out.maxEvents = max;
  }
  const cred = field(body, 'sinkCredential');
  if (cred !== undefined) out.credential = credential(cred, nowMs);
  return out;
}
