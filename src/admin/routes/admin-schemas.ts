import { z } from 'zod';
import { OPERATIONS, Operation } from '../../partners/operation';
import { AdminProblem, FieldProblem } from './problem';

/**
 * The admin API's request bodies and query strings (docs/openapi-admin.yaml), strict: an unknown
 * field is refused, not ignored, so a typo never passes for a change that was not made.
 */
const operation = z.enum(OPERATIONS as [Operation, ...Operation[]]);
const operations = z.array(operation).max(OPERATIONS.length).refine((a) => new Set(a).size === a.length, 'must not name an operation twice');
const rateLimit = z.object({
  perSecond: z.number().positive().max(100_000),
  burst: z.number().int().min(1).max(1_000_000),
}).strict().nullable();
const purpose = z.string().regex(/^[\x21-\x7e]{1,128}$/, 'must be 1-128 printable characters without spaces').nullable();
const kind = z.enum(['partner', 'internal']);
const signature = z.enum(['md5', 'hmac-sha256']);

export const newPartnerSchema = z.object({
  name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, 'must be 1-64 letters, digits or ._- starting with a letter or digit'),
  operations,
  kind: kind.optional(),
  signature: signature.optional(),
  rateLimit: rateLimit.optional(),
  purpose: purpose.optional(),
}).strict();

export const partnerPatchSchema = z.object({
  enabled: z.boolean().optional(),
  operations: operations.optional(),
  kind: kind.optional(),
  signature: signature.optional(),
  rateLimit: rateLimit.optional(),
  purpose: purpose.optional(),
}).strict().refine((p) => Object.keys(p).length > 0, 'must change at least one field');

export const rotateSchema = z.object({
  graceSeconds: z.number().int().min(0).max(30 * 86_400).optional(),
}).strict();

const one = z.string().max(512);
const limit = z.string().regex(/^[0-9]{1,3}$/, 'must be a whole number from 1 to 500').transform(Number).pipe(z.number().int().min(1).max(500));

export const changesQuery = z.object({ partner: one.optional(), cursor: one.optional(), limit: limit.optional() }).strict();
export const usageQuery = z.object({
  from: one.optional(), to: one.optional(), partner: one.optional(), interval: z.enum(['day', 'hour']).optional(),
}).strict();
export const auditQuery = z.object({
  msisdn: one.optional(), partner: one.optional(), from: one.optional(), to: one.optional(), cursor: one.optional(), limit: limit.optional(),
}).strict();
export const subscriptionsQuery = z.object({ partner: z.string().min(1).max(64) }).strict();
export const overviewQuery = z.object({
  hours: z.string().regex(/^[0-9]{1,3}$/, 'must be a whole number from 1 to 168').transform(Number).pipe(z.number().int().min(1).max(168)).optional(),
}).strict();

/** zod's own messages for these quote the refused value, which may be a secret or personal data. */
function messageOf(issue: z.ZodIssue): string {
  switch (issue.code) {
    case 'invalid_enum_value': return `must be one of ${issue.options.join(', ')}`;
    case 'unrecognized_keys': return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.map((k) => JSON.stringify(k.slice(0, 40))).join(', ')}`;
    case 'invalid_type': return issue.received === 'undefined' ? 'is required' : `must be ${issue.expected}`;
    case 'invalid_literal': return 'has a value that is not allowed';
    default: return issue.message;
  }
}

/** The parsed value, or a 400 problem naming every field at fault (never a value). */
export function parse<T extends z.ZodTypeAny>(schema: T, value: unknown, where: 'body' | 'query'): z.output<T> {
  if (where === 'query' && typeof value === 'object' && value !== null) {
    const repeated = Object.entries(value).find(([, v]) => typeof v !== 'string');
    if (repeated) throw new AdminProblem(400, 'a query parameter may be given once', 'about:blank', [{ field: repeated[0].slice(0, 40), message: 'given more than once' }]);
  }
  const r = schema.safeParse(value);
  if (r.success) return r.data as z.output<T>;
  const errors: FieldProblem[] = r.error.issues.slice(0, 20).map((i) => ({ field: i.path.join('.') || where, message: messageOf(i) }));
  throw new AdminProblem(400, `the ${where === 'body' ? 'request body' : 'query string'} is not valid`, 'about:blank', errors);
}
