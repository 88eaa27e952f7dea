import { z } from 'zod';
import { PHONE_EXPECTATION, PHONE_NUMBER } from '../camara/camara-input';
import { flatShape, undeclaredMessage, undeclaredProperty } from '../camara/strict-body';
import { isPlainObject, ownFields } from '../kernel/plain-object';
import { parseFullDate } from '../kernel/zoned-date';
import { ATTRIBUTES, ComparisonKind, GENDERS, ID_DOCUMENT_TYPES, MatchAttributes } from './attribute-catalogue';
import { normalise } from './normalise';

/*
 * The KYC Match request body (kyc-match.yaml KYC_MatchRequestBody). A property the schema does
 * not declare is refused, as in every CAMARA body here (CONTRACT §13's one body rule); its name
 * is caller text, never an identity value, so it may be named. A problem names the property and what it must be, never the value
 * sent: every value here is someone's personal data.
 */

/** Longest value accepted, in UTF-16 units: far above any real name or address, and it bounds the score's cost. */
export const MAX_VALUE_LENGTH = 256;
/** RFC 5321's limit on a forward path. */
export const MAX_EMAIL_LENGTH = 254;

/**
 * The yaml's `format: email` as JSON Schema validators read it (ajv-formats' `email`, which the
 * clients generated from the yaml use): an RFC 5321 mailbox with a dot-atom local part (every
 * atext character: `/`, `%`, `+`, `=`, `'` … included) and a domain of hostname labels. zod's
 * `.email()` refused most of what the yaml allows (`a/b@example.com`, `user%x@example.com`).
 * Linear on any input of at most MAX_EMAIL_LENGTH characters (checked first).
 */
export const EMAIL = /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;

export type RequestProblemCode = 'INVALID_ARGUMENT' | 'INVALID_PARAM_COMBINATION';

/** One thing wrong with a request; the route answers 400 with the first problem's code. */
export interface RequestProblem {
  code: RequestProblemCode;
  /** The property at fault, when there is one. */
  field?: string;
  message: string;
}

export type ParsedMatchRequest =
  | { ok: true; phoneNumber?: string; attributes: MatchAttributes }
  | { ok: false; problems: RequestProblem[] };

/** A value that normalises to nothing ("", "  ", "-.-") could only ever match another such nothing. */
function notBlank(kind: ComparisonKind) {
  return z.string().max(MAX_VALUE_LENGTH).refine((v) => normalise(kind, v) !== '');
}

function schemaOf(name: string, kind: ComparisonKind): z.ZodTypeAny {
  switch (kind) {
    case 'text':
    case 'kana':
    case 'code': return notBlank(kind);
    case 'date': return z.string().refine((v) => parseFullDate(v) !== undefined);
    case 'enum': return z.enum(name === 'gender' ? GENDERS : ID_DOCUMENT_TYPES);
    case 'country': return z.string().regex(/^[A-Za-z]{2}$/);
    case 'email': return z.string().refine((v) => v.length <= MAX_EMAIL_LENGTH && EMAIL.test(v));
    default: {
      const unknown: never = kind;
      throw new Error(`unknown comparison kind ${String(unknown)}`);
    }
  }
}

function expectation(name: string, kind: ComparisonKind): string {
  switch (kind) {
    case 'text':
    case 'kana':
    case 'code': return `${name} must be a string of at most ${MAX_VALUE_LENGTH} characters with more than spaces and punctuation`;
    case 'date': return `${name} must be a date in the form YYYY-MM-DD`;
    case 'enum': return `${name} must be one of ${(name === 'gender' ? GENDERS : ID_DOCUMENT_TYPES).join(', ')}`;
    case 'country': return `${name} must be an ISO 3166-1 alpha-2 country code (two letters)`;
    case 'email': return `${name} must be an e-mail address (local-part@domain) of at most ${MAX_EMAIL_LENGTH} characters`;
    default: {
      const unknown: never = kind;
      throw new Error(`unknown comparison kind ${String(unknown)}`);
    }
  }
}

const EXPECTATIONS = new Map<string, string>([
  ['phoneNumber', PHONE_EXPECTATION],
  ...ATTRIBUTES.map((a): [string, string] => [a.name, expectation(a.name, a.kind)]),
]);

const KNOWN_FIELDS = [...EXPECTATIONS.keys()];
const DECLARED = flatShape(KNOWN_FIELDS);

const requestSchema = z.object({
  phoneNumber: z.string().regex(PHONE_NUMBER).optional(),
  ...Object.fromEntries(ATTRIBUTES.map((a) => [a.name, schemaOf(a.name, a.kind).optional()])),
});

/** The typed attributes of a request body, or every problem with it. */
export function parseMatchRequest(body: unknown): ParsedMatchRequest {
  if (!isPlainObject(body)) {
    return { ok: false, problems: [{ code: 'INVALID_ARGUMENT', message: 'the request body must be a JSON object' }] };
  }
  const undeclared = undeclaredProperty(body, DECLARED);
  if (undeclared !== undefined) {
    return { ok: false, problems: [{ code: 'INVALID_ARGUMENT', message: undeclaredMessage(undeclared) }] };
  }
  const parsed = requestSchema.safeParse(ownFields(body, KNOWN_FIELDS));
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((i) => String(i.path[0])))];
    return { ok: false, problems: fields.map((field) => ({ code: 'INVALID_ARGUMENT', field, message: EXPECTATIONS.get(field) ?? `${field} is not valid` })) };
  }
  const { phoneNumber, ...rest } = parsed.data as { phoneNumber?: string } & Record<string, string | undefined>;
  const attributes: MatchAttributes = {};
  for (const { name } of ATTRIBUTES) {
    const value = rest[name];
    if (value !== undefined) attributes[name] = value;
  }
  if (Object.keys(attributes).length === 0) {
    // The feature file: `{}` is INVALID_ARGUMENT (400.2), phoneNumber alone INVALID_PARAM_COMBINATION (10).
    return phoneNumber === undefined
      ? { ok: false, problems: [{ code: 'INVALID_ARGUMENT', message: 'the request body must hold at least one attribute to match' }] }
      : { ok: false, problems: [{ code: 'INVALID_PARAM_COMBINATION', message: 'at least one attribute besides phoneNumber must be sent' }] };
  }
  return phoneNumber === undefined ? { ok: true, attributes } : { ok: true, phoneNumber, attributes };
}
