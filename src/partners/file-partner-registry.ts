import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { OPERATIONS, Operation } from './operation';
import { MemoryPartnerRegistry } from './memory-partner-registry';
import { PRIMARY_SECRET_ID, Partner, PartnerSecret } from './partners';

const SECRET_ENV = /^[A-Z_][A-Z0-9_]*$/;
export const SECRET_ID = /^[A-Za-z0-9_-]{1,64}$/;

/** A rotated partner's secrets (CONTRACT §12), newest first; a value or the variable holding it. */
const secretSchema = z.object({
  id: z.string().regex(SECRET_ID, 'id must be 1-64 letters, digits, _ or -'),
  secret: z.string().min(1).optional(),
  secretEnv: z.string().regex(SECRET_ENV).optional(),
  createdAt: z.string().datetime({ offset: true }),
  validUntil: z.string().datetime({ offset: true }).nullable().default(null),
}).strict();

const partnerSchema = z.object({
  name: z.string().min(1).max(64),
  kind: z.enum(['partner', 'internal']).default('partner'),
  apiKey: z.string().regex(/^[A-Za-z0-9._~-]{4,128}$/, 'apiKey must be 4-128 URL-safe characters'),
  secret: z.string().min(1).optional(),
  secretEnv: z.string().regex(SECRET_ENV).optional(),
  /** Instead of secret/secretEnv: one or two secrets, newest first, as a rotation writes them (none: a disabled partner's last was revoked). */
  secrets: z.array(secretSchema).max(2).optional(),
  operations: z.array(z.enum(OPERATIONS as [Operation, ...Operation[]])),
  enabled: z.boolean().default(true),
  signature: z.enum(['md5', 'hmac-sha256']).default('md5'),
  rateLimit: z.object({ perSecond: z.number().positive(), burst: z.number().int().positive() }).optional(),
  /** Declared purpose recorded in the audit trail when the caller's credentials carry none. */
  purpose: z.string().regex(/^[\x21-\x7e]{1,128}$/, 'purpose must be 1-128 printable characters without spaces').optional(),
}).strict();

const fileSchema = z.object({ partners: z.array(partnerSchema) });

/** A registry file's JSON as it stands; errors name the file and the reason, never its text. */
export function readPartnersJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    // Never echo the parser's message, nor attach it as the cause (loggers print causes): V8
    // quotes the surrounding text, which may hold a secret.
    const code = (err as NodeJS.ErrnoException).code;
    // eslint-disable-next-line preserve-caught-error
    throw new Error(`partners file ${path} ${code ? `cannot be read (${code})` : 'is not valid JSON'}`);
  }
}

/** Reads and validates a registry file; errors name the partner and field, never a secret. */
export function readPartnersFile(path: string, env: NodeJS.ProcessEnv = process.env): Partner[] {
  return parsePartners(readPartnersJson(path), path, env);
}

/** zod's own messages for these codes quote the refused value or key, which could be a secret. */
function describeIssue(issue: z.ZodIssue): string {
  switch (issue.code) {
    case 'invalid_enum_value':
      return `must be one of ${issue.options.join(', ')}`;
    case 'unrecognized_keys':
      return `has ${issue.keys.length === 1 ? 'a field' : `${issue.keys.length} fields`} the format does not know (allowed: ${Object.keys(partnerSchema.shape).join(', ')})`;
    case 'invalid_literal':
      return 'has a value the format does not allow';
    default:
      return issue.message;
  }
}

/** Validates a registry document (a file's parsed JSON); `path` names it in errors. */
export function parsePartners(json: unknown, path: string, env: NodeJS.ProcessEnv = process.env): Partner[] {
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new Error(`partners file ${path}: ${first.path.join('.')}${first.path.length ? ': ' : ''}${describeIssue(first)}`);
  }
  const seen = new Set<string>();
  return parsed.data.partners.map((p, i) => {
    if (seen.has(p.apiKey)) throw new Error(`partners file ${path}: partners.${i}: duplicate apiKey`);
    seen.add(p.apiKey);
    const where = `partners file ${path}: partners.${i} (${p.name})`;
    const secrets = secretsOf(p, env, where);
    const partner: Partner = {
      name: p.name, apiKey: p.apiKey, secret: secrets[0]?.secret ?? '', secrets, operations: new Set(p.operations), enabled: p.enabled, signature: p.signature,
    };
    if (p.kind === 'internal') partner.kind = 'internal';
    if (p.rateLimit) partner.rateLimit = p.rateLimit;
    if (p.purpose) partner.purpose = p.purpose;
    return partner;
  });
}

function valueOf(s: { secret?: string | undefined; secretEnv?: string | undefined }, env: NodeJS.ProcessEnv, where: string): string {
  const value = s.secretEnv !== undefined ? env[s.secretEnv] : s.secret;
  if (!value) throw new Error(`${where}: ${s.secretEnv ? `environment variable ${s.secretEnv} is not set` : 'needs "secret" or "secretEnv"'}`);
  return value;
}

/** The first format's lone secret (id PRIMARY_SECRET_ID, valid until replaced), or the listed ones. */
function secretsOf(p: z.infer<typeof partnerSchema>, env: NodeJS.ProcessEnv, where: string): PartnerSecret[] {
  if (!p.secrets) return [{ id: PRIMARY_SECRET_ID, secret: valueOf(p, env, where), createdAtMs: 0, validUntilMs: null }];
  if (p.secret !== undefined || p.secretEnv !== undefined) throw new Error(`${where}: give "secrets" or "secret"/"secretEnv", not both`);
  if (new Set(p.secrets.map((s) => s.id)).size !== p.secrets.length) throw new Error(`${where}: secrets: duplicate id`);
  return p.secrets.map((s, j) => {
    if ((s.secret === undefined) === (s.secretEnv === undefined)) throw new Error(`${where}: secrets.${j}: needs exactly one of "secret" or "secretEnv"`);
    return {
      id: s.id, secret: valueOf(s, env, `${where}: secrets.${j}`),
      createdAtMs: Date.parse(s.createdAt), validUntilMs: s.validUntil === null ? null : Date.parse(s.validUntil),
    };
  });
}

/** The partner registry from PARTNERS_FILE; reload() swaps it atomically or keeps the old one. */
export class FilePartnerRegistry extends MemoryPartnerRegistry {
  constructor(readonly path: string, private readonly env: NodeJS.ProcessEnv = process.env) {
    super();
    this.reload();
  }

  /** Re-reads the file; on error the registry in force stays and the error is thrown. */
  reload(): number {
    const partners = readPartnersFile(this.path, this.env);
    this.replace(partners);
    return partners.length;
  }
}
