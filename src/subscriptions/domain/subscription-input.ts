import { z } from 'zod/v4';
import { PHONE_EXPECTATION, PHONE_NUMBER } from '../../camara/camara-input';
import { DeclaredShape, refuseUndeclared } from '../../camara/strict-body';
import { BadRequestError } from '../../errors/domain-errors';
import { fail, ownFieldsOf, ownObject, parseBody } from '../../kernel/body-schema';
import { parseRfc3339 } from '../../kernel/rfc3339';
import { InvalidCredentialError, InvalidProtocolError, InvalidTokenTypeError } from './subscription-errors';
import { ACCESS_TOKEN_END_LEAD_MS, SWAPPED, SinkCredential } from './subscription';

/*
 * The subscription request (sim-swap-subscriptions.yaml SubscriptionRequest). A property the
 * schema does not declare, at any depth, is refused (CONTRACT §13's one body rule; 0.3.0
 * defines no `initialEvent`, so one sent is refused too). The fields are listed in the order
 * their problems are reported.
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

const INVALID_PROTOCOL = 'INVALID_PROTOCOL';
const INVALID_TOKEN_TYPE = 'INVALID_TOKEN_TYPE';
const INVALID_CREDENTIAL = 'INVALID_CREDENTIAL';

function text(name: string) {
  const message = `sinkCredential.${name} must be a non-empty string`;
  return z.string(message).min(1, message).max(MAX_TEXT, message);
}

/**
 * The instant this parse judges "in the future" against. The schema is built once (building a
 * zod schema costs milliseconds, running it microseconds), so the time is not baked into it:
 * parseSubscriptionRequest sets it right before its parse, which is synchronous.
 */
let parseNowMs = 0;

/** An RFC 3339 date-time (the shared parser) more than `leadMs` after now: its text and instant. */
function dateTimeAfterNow(name: string, leadMs: number, tooEarly: string) {
  return z.unknown().transform((value, ctx) => {
    const ms = parseRfc3339(value);
    if (ms === undefined) return fail(ctx, `${name} must be a real RFC 3339 date-time with a time zone`);
    if (ms <= parseNowMs + leadMs) return fail(ctx, tooEarly);
    return { text: value as string, ms };
  });
}

function sinkProblem(sink: string): string | undefined {
  const url = URL.parse(sink);
  if (url === null) return 'sink must be an absolute URL';
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'sink must be an https URL';
  if (url.username || url.password) return 'sink must not carry credentials; use sinkCredential';
  return undefined;
}

const plainCredential = z.object({
  credentialType: z.literal('PLAIN'),
  identifier: text('identifier'),
  secret: text('secret'),
});

/** What PLAIN needs beyond two texts, checked once both are texts. */
function plainProblem(identifier: string, secret: string): string | undefined {
  // Basic splits user and password at the first colon (RFC 7617 §2): a colon in the
  // identifier would reach the sink as another user.
  if (identifier.includes(':')) return 'sinkCredential.identifier must not contain ":"';
  if (!BASIC_TEXT.test(identifier)) return 'sinkCredential.identifier must be printable Latin-1 text without control characters';
  if (!BASIC_TEXT.test(secret)) return 'sinkCredential.secret must be printable Latin-1 text without control characters';
  return undefined;
}

/** The subscription ends, and says so with this token, a minute before it expires. */
const accessTokenCredential = z.object({
  credentialType: z.literal('ACCESSTOKEN'),
  accessTokenType: z.unknown().refine((t) => t === 'bearer', { message: 'Only bearer token is supported', params: { kind: INVALID_TOKEN_TYPE } }),
  // Sent as `Bearer <token>`: a character Node refuses in a header value would fail every delivery.
  accessToken: text('accessToken').regex(TOKEN68, 'sinkCredential.accessToken must be a bearer token68 (A-Z a-z 0-9 - . _ ~ + / then optional =)'),
  accessTokenExpiresUtc: dateTimeAfterNow('sinkCredential.accessTokenExpiresUtc', ACCESS_TOKEN_END_LEAD_MS,
    `sinkCredential.accessTokenExpiresUtc must be more than ${ACCESS_TOKEN_END_LEAD_MS / 1000} s in the future`),
});

const CREDENTIAL_FIELDS = ['credentialType', 'identifier', 'secret', 'accessTokenType', 'accessToken', 'accessTokenExpiresUtc'];

const credentialType = z.string('sinkCredential.credentialType is required').refine(
  (t) => t === 'PLAIN' || t === 'ACCESSTOKEN',
  { message: 'Only Access token (ACCESSTOKEN) and PLAIN credentials are supported', params: { kind: INVALID_CREDENTIAL } },
);

const credentialSchema = ownFieldsOf(CREDENTIAL_FIELDS, z.looseObject({ credentialType }, { error: 'sinkCredential must be an object' })
  .pipe(z.discriminatedUnion('credentialType', [plainCredential, accessTokenCredential])))
  .transform((c, ctx): SinkCredential => {
    if (c.credentialType === 'ACCESSTOKEN') {
      return { credentialType: 'ACCESSTOKEN', accessToken: c.accessToken, accessTokenExpiresUtc: c.accessTokenExpiresUtc.text, accessTokenType: 'bearer' };
    }
    const problem = plainProblem(c.identifier, c.secret);
    return problem === undefined ? { credentialType: 'PLAIN', identifier: c.identifier, secret: c.secret } : fail(ctx, problem);
  });

/** A time in the past is INVALID_ARGUMENT, as the .feature says. */
const requestSchema = ownObject({
  protocol: z.unknown()
    .refine((p) => p !== undefined, 'protocol is required')
    .refine((p) => p === undefined || p === 'HTTP', { message: 'Only HTTP is supported', params: { kind: INVALID_PROTOCOL } }),
  sink: z.string('sink is required and must be a URL').min(1, 'sink is required and must be a URL')
    .superRefine((sink, ctx) => {
      const problem = sinkProblem(sink);
      if (problem !== undefined) fail(ctx, problem);
    }),
  types: z.unknown().refine((t) => Array.isArray(t) && t.length === 1 && t[0] === SWAPPED, `types must be ["${SWAPPED}"]`),
  config: ownObject({
    subscriptionDetail: ownObject({
      phoneNumber: z.string(PHONE_EXPECTATION).regex(PHONE_NUMBER, PHONE_EXPECTATION).optional(),
    }, 'config.subscriptionDetail is required and must be an object'),
    subscriptionExpireTime: dateTimeAfterNow('config.subscriptionExpireTime', 0, 'config.subscriptionExpireTime must be in the future').optional(),
    subscriptionMaxEvents: z.number('config.subscriptionMaxEvents must be an integer of at least 1')
      .refine(Number.isInteger, 'config.subscriptionMaxEvents must be an integer of at least 1')
      .min(1, 'config.subscriptionMaxEvents must be an integer of at least 1').optional(),
  }, 'config is required and must be an object'),
  sinkCredential: credentialSchema.optional(),
}, 'the request body must be a JSON object');

/**
 * What the yaml declares. sinkCredential is PlainCredential, AccessTokenCredential or
 * RefreshTokenCredential (allOf over SinkCredential): the union of their properties (a
 * REFRESHTOKEN one is then refused as INVALID_CREDENTIAL, not for its fields); which ones a type
 * needs is the schema's check.
 */
const DECLARED: DeclaredShape = {
  protocol: true, sink: true, types: true,
  sinkCredential: Object.fromEntries([...CREDENTIAL_FIELDS, 'refreshToken', 'refreshTokenEndpoint'].map((f) => [f, true])),
  config: { subscriptionDetail: { phoneNumber: true }, subscriptionExpireTime: true, subscriptionMaxEvents: true },
};

const ERRORS: Record<string, new (message: string) => Error> = {
  [INVALID_PROTOCOL]: InvalidProtocolError,
  [INVALID_TOKEN_TYPE]: InvalidTokenTypeError,
  [INVALID_CREDENTIAL]: InvalidCredentialError,
};

/** The request, or the error for its first problem; times in the future are judged against nowMs. */
export function parseSubscriptionRequest(body: unknown, nowMs: number): SubscriptionRequest {
  parseNowMs = nowMs;
  refuseUndeclared(body, DECLARED);
  const result = parseBody(requestSchema, body);
  if (!result.ok) throw new (ERRORS[result.kind ?? ''] ?? BadRequestError)(result.message);
  const { sink, config, sinkCredential } = result.value;
  const out: SubscriptionRequest = { sink, types: [SWAPPED] };
  if (config.subscriptionDetail.phoneNumber !== undefined) out.phoneNumber = config.subscriptionDetail.phoneNumber;
  if (config.subscriptionExpireTime !== undefined) {
    out.subscriptionExpireTime = config.subscriptionExpireTime.text;
    out.expiresAtMs = config.subscriptionExpireTime.ms;
  }
  if (config.subscriptionMaxEvents !== undefined) out.maxEvents = config.subscriptionMaxEvents;
  if (sinkCredential !== undefined) out.credential = sinkCredential;
  return out;
}
