import { z } from 'zod';
import { BadRequestError, ConflictError, NotFoundError } from '../../errors/domain-errors';
import { OPERATIONS, Operation } from '../operation';
import { NewPartner, PartnerPatch, RotatedSecret } from '../ports/partner-admin';
import { PartnerRecord, SecretRecord, newApiKey, newSecretId, newSecretValue, secretRecordValidAt } from './partner-record';

/*
 * The management plane's rules (CONTRACT §12), the same for both stores: what a new partner, a
 * patch, a rotation and a revocation may be, and the record each makes. Pure: the stores read,
 * call these, and write the result with its change log entry in one step.
 */

export const DEFAULT_GRACE_S = 86_400;
export const MAX_GRACE_S = 30 * 86_400;

/** Names appear in URLs (/admin/api/v1/partners/{name}), logs and the audit trail. */
const NAME = z.string().regex(/^[A-Za-z0-9](?:[A-Za-z0-9 ._-]{0,62}[A-Za-z0-9._-])?$/,
  'must be 1-64 letters, digits, spaces, ".", "_" or "-", starting with a letter or digit and not ending with a space');
const operations = z.array(z.enum(OPERATIONS as [Operation, ...Operation[]])).min(1, 'must name at least one operation')
  .refine((ops) => new Set(ops).size === ops.length, 'must not repeat an operation');
const rateLimit = z.object({ perSecond: z.number().positive().max(1_000_000), burst: z.number().int().positive().max(1_000_000) }).strict().nullable();
const purpose = z.string().regex(/^[\x21-\x7e]{1,128}$/, 'must be 1-128 printable characters without spaces').nullable();
const kind = z.enum(['partner', 'internal']);
const signature = z.enum(['md5', 'hmac-sha256']);

const newPartnerSchema = z.object({
  name: NAME, operations, kind: kind.optional(), signature: signature.optional(), rateLimit: rateLimit.optional(), purpose: purpose.optional(),
}).strict();
const patchSchema = z.object({
  enabled: z.boolean().optional(), operations: operations.optional(), kind: kind.optional(), signature: signature.optional(),
  rateLimit: rateLimit.optional(), purpose: purpose.optional(),
}).strict();

/** zod's issue as a 400 naming the field; never the value (a caller may paste a secret anywhere). */
function parsed<T>(schema: z.ZodType<T>, allowed: readonly string[], input: unknown): T {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  const field = issue.path.join('.') || 'body';
  const why = issue.code === 'unrecognized_keys' ? `unknown field${issue.keys.length > 1 ? 's' : ''} (allowed: ${allowed.join(', ')})`
    : issue.code === 'invalid_enum_value' ? `must be one of ${issue.options.join(', ')}`
      : issue.code === 'invalid_type' ? `must be ${issue.expected}` : issue.message;
  throw new BadRequestError(`${field}: ${why}`);
}

export function parseNewPartner(input: unknown): NewPartner {
  const p: NewPartner = parsed(newPartnerSchema, Object.keys(newPartnerSchema.shape), input);
  return p;
}

export function parsePatch(input: unknown): PartnerPatch {
  const p: PartnerPatch = parsed(patchSchema, Object.keys(patchSchema.shape), input);
  return p;
}

export function parseGrace(graceSeconds: unknown): number {
  if (graceSeconds === undefined) return DEFAULT_GRACE_S;
  if (typeof graceSeconds !== 'number' || !Number.isInteger(graceSeconds) || graceSeconds < 0 || graceSeconds > MAX_GRACE_S) {
    throw new BadRequestError(`graceSeconds: must be a whole number of seconds from 0 to ${MAX_GRACE_S} (30 days)`);
  }
  return graceSeconds;
}

const iso = (ms: number) => new Date(ms).toISOString();

export function newSecret(nowMs: number, id = newSecretId()): SecretRecord {
  return { id, secret: newSecretValue(), createdAt: iso(nowMs), validUntil: null };
}

/**
 * A new enabled partner with its first secret; its name and api key must be free. `firstSecretId`:
 * the file store names it PRIMARY_SECRET_ID, so the entry keeps the file's first format.
 */
export function createdRecord(input: unknown, existing: readonly PartnerRecord[], nowMs: number, firstSecretId?: string): PartnerRecord {
  const p = parseNewPartner(input);
  if (existing.some((r) => r.name === p.name)) throw new ConflictError(`a partner named ${p.name} exists`);
  let apiKey = newApiKey(p.name);
  while (existing.some((r) => r.apiKey === apiKey)) apiKey = newApiKey(p.name);
  return {
    name: p.name, kind: p.kind ?? 'partner', apiKey, operations: p.operations, enabled: true, signature: p.signature ?? 'md5',
    rateLimit: p.rateLimit ?? null, purpose: p.purpose ?? null, secrets: [newSecret(nowMs, firstSecretId)],
  };
}

export function patchedRecord(r: PartnerRecord, input: unknown): PartnerRecord {
  const patch = parsePatch(input);
  // An empty patch would log a change that changed nothing.
  if (Object.keys(patch).length === 0) throw new BadRequestError('body: names no field to change');
  const next: PartnerRecord = { ...r };
  if (patch.enabled !== undefined) next.enabled = patch.enabled;
  if (patch.operations !== undefined) next.operations = patch.operations;
  if (patch.kind !== undefined) next.kind = patch.kind;
  if (patch.signature !== undefined) next.signature = patch.signature;
  if (patch.rateLimit !== undefined) next.rateLimit = patch.rateLimit;
  if (patch.purpose !== undefined) next.purpose = patch.purpose;
  return next;
}

/**
 * A new current secret; the one it replaces stays valid for graceS. Expired secrets go. A
 * partner already holding two valid secrets (a grace under way) gets 409: the operator revokes
 * one first, rather than a rotation silently cutting off the secret still in its grace.
 */
export function rotatedRecord(r: PartnerRecord, graceS: unknown, nowMs: number): { record: PartnerRecord; rotated: RotatedSecret } {
  const grace = parseGrace(graceS);
  const valid = r.secrets.filter((s) => secretRecordValidAt(s, nowMs));
  if (valid.length >= 2) throw new ConflictError('the partner already holds two valid secrets; revoke one before rotating again');
  const fresh = newSecret(nowMs);
  const previous = valid[0];
  const graceUntil = iso(nowMs + grace * 1000);
  // A previous secret that would expire sooner than the grace keeps its earlier end.
  const endsSooner = previous?.validUntil != null && Date.parse(previous.validUntil) < nowMs + grace * 1000;
  const kept = previous ? [{ ...previous, validUntil: endsSooner ? previous.validUntil : graceUntil }] : [];
  const record = { ...r, secrets: [fresh, ...kept.filter((s) => secretRecordValidAt(s, nowMs))] };
  return { record, rotated: { id: fresh.id, secret: fresh.secret, previousValidUntil: record.secrets[1]?.validUntil ?? null } };
}

/** Without the secret: at once. An enabled partner's last valid secret cannot go (409). */
export function revokedRecord(r: PartnerRecord, secretId: string, nowMs: number): PartnerRecord {
  const valid = r.secrets.filter((s) => secretRecordValidAt(s, nowMs));
  if (!valid.some((s) => s.id === secretId)) throw new NotFoundError(`partner ${r.name} has no valid secret with that id`);
  if (r.enabled && valid.length === 1) throw new ConflictError('the last valid secret of an enabled partner cannot be revoked; disable the partner or rotate first');
  return { ...r, secrets: valid.filter((s) => s.id !== secretId) };
}

export function recordNamed(records: readonly PartnerRecord[], name: string): PartnerRecord {
  const r = records.find((p) => p.name === name);
  if (!r) throw new NotFoundError(`no partner named ${name}`);
  return r;
}
