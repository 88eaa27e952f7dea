import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { OPERATIONS, Operation } from '../../domain/operation';
import { Partner, PartnerRegistry } from '../../domain/ports/partners';

const partnerSchema = z.object({
  name: z.string().min(1).max(64),
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

/** Reads and validates a registry file; errors name the partner and field, never a secret. */
export function readPartnersFile(path: string, env: NodeJS.ProcessEnv = process.env): Partner[] {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    // Never echo the parser's message: V8 quotes the surrounding text, which may hold a secret.
    const reason = (err as NodeJS.ErrnoException).code ? `cannot be read (${(err as NodeJS.ErrnoException).code})` : 'is not valid JSON';
    // eslint-disable-next-line preserve-caught-error -- the cause would carry the parser's message, which may quote a secret
    throw new Error(`partners file ${path} ${reason}`);
  }
  const parsed = fileSchema.safeParse(json);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    // zod's enum messages quote the refused value, which could be a secret pasted in the wrong field.
    const message = first.code === 'invalid_enum_value' ? `must be one of ${first.options.join(', ')}` : first.message;
    throw new Error(`partners file ${path}: ${first.path.join('.')}: ${message}`);
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
