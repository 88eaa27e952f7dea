import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { Principal, ROLES, Role, rolesFrom } from './principal';

const fileSchema = z.object({
  tokens: z.array(z.object({
    name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$/, 'name must be 1-64 letters, digits or ._@-'),
    sha256: z.string().regex(/^[0-9a-fA-F]{64}$/, 'sha256 must be 64 hex digits (the SHA-256 of the token)'),
    roles: z.array(z.enum(ROLES as [Role, ...Role[]])).min(1),
  }).strict()),
}).strict();

interface TokenEntry {
  name: string;
  digest: Buffer;
  roles: Role[];
}

export function sha256(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}

/**
 * Bearer tokens for automation (ADMIN_TOKENS_FILE): the file holds each token's SHA-256, never
 * the token. A presented token is hashed and compared with every entry in constant time, all
 * entries walked whatever matched, so the time says nothing of which entry or how much matched.
 */
export class AdminTokens {
  private constructor(private readonly entries: TokenEntry[]) {}

  /** Errors name the file and field, never a value. */
  static fromFile(path: string): AdminTokens {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(path, 'utf8'));
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // eslint-disable-next-line preserve-caught-error
      throw new Error(`ADMIN_TOKENS_FILE ${path} ${code ? `cannot be read (${code})` : 'is not valid JSON'}`);
    }
    const parsed = fileSchema.safeParse(json);
    if (!parsed.success) {
      const first = parsed.error.issues[0];
      const message = first.code === 'unrecognized_keys' ? 'has a field the format does not know (allowed: name, sha256, roles)'
        : first.code === 'invalid_enum_value' ? `must be one of ${ROLES.join(', ')}` : first.message;
      throw new Error(`ADMIN_TOKENS_FILE ${path}: ${first.path.join('.')}: ${message}`);
    }
    const names = new Set<string>();
    for (const t of parsed.data.tokens) {
      if (names.has(t.name)) throw new Error(`ADMIN_TOKENS_FILE ${path}: the name ${t.name} is given twice`);
      names.add(t.name);
    }
    return new AdminTokens(parsed.data.tokens.map((t) => ({ name: t.name, digest: Buffer.from(t.sha256, 'hex'), roles: rolesFrom(t.roles) })));
  }

  /** A one-time token made at start (development without any sign-in configured): only its digest is kept. */
  static oneTime(roles: Role[]): { tokens: AdminTokens; token: string } {
    const token = randomBytes(24).toString('base64url');
    return { tokens: new AdminTokens([{ name: 'one-time-login', digest: sha256(token), roles: rolesFrom(roles) }]), token };
  }

  get size(): number {
    return this.entries.length;
  }

  /** The principal a token stands for, or undefined. */
  match(token: string): Principal | undefined {
    const digest = sha256(token);
    let found: TokenEntry | undefined;
    for (const e of this.entries) {
      if (timingSafeEqual(e.digest, digest) && found === undefined) found = e;
    }
    return found && { subject: found.name, method: 'token-bearer', roles: found.roles };
  }

  /** Forgets every entry (the one-time token once used). */
  clear(): void {
    this.entries.length = 0;
  }
}
