import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { OPERATIONS, Operation } from './operation';
import { Partner, PartnerRegistry } from './partners';

const partnerSchema = z.object({
  name: z.string().min(1).max(64),
  kind: z.enum(['partner', 'internal']).default('partner'),
  apiKey: z.string().regex(/^[A-Za-z0-9._~-]{4,128}$/, 'apiKey must be 4-128 URL-safe characters'),
  secret: z.string().min(1).optional(),
  secretEnv: z.string().regex(/^[A-Z_][A-Z0-9_]*$/).optional(),
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
    const secret = p.secretEnv !== undefined ? env[p.secretEnv] : p.secret;
    if (!secret) {
      throw new Error(`partners file ${path}: partners.${i} (${p.name}): ` +
        (p.secretEnv ? `environment variable ${p.secretEnv} is not set` : 'needs "secret" or "secretEnv"'));
    }
    const partner: Partner = {
      name: p.name, apiKey: p.apiKey, secret, operations: new Set(p.operations), enabled: p.enabled, signature: p.signature,
    };
    if (p.kind === 'internal') partner.kind = 'internal';
    if (p.rateLimit) partner.rateLimit = p.rateLimit;
    if (p.purpose) partner.purpose = p.purpose;
    return partner;
  });
}

/** The partner registry from PARTNERS_FILE; reload() swaps it atomically or keeps the old one. */
export class FilePartnerRegistry implements PartnerRegistry {
  private byKey = new Map<string, Partner>();
  private list: readonly Partner[] = [];

  constructor(readonly path: string, private readonly env: NodeJS.ProcessEnv = process.env) {
    this.reload();
  }

  /** Re-reads the file; on error the registry in force stays and the error is thrown. */
  reload(): number {
    const partners = readPartnersFile(this.path, this.env);
    this.byKey = new Map(partners.map((p) => [p.apiKey, p]));
    this.list = partners;
    return partners.length;
  }

  find(apiKey: string): Partner | undefined {
    return this.byKey.get(apiKey);
  }

  all(): readonly Partner[] {
    return this.list;
  }
}
