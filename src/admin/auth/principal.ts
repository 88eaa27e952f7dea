import { Actor } from '../../partners/ports/partner-admin';

/** The management plane's roles (CONTRACT §12): partner-admin and compliance each include viewer. */
export type Role = 'viewer' | 'partner-admin' | 'compliance';

export const ROLES: readonly Role[] = ['viewer', 'partner-admin', 'compliance'];

/** How the caller proved who it is. */
export type AuthMethod = 'oidc-session' | 'link-session' | 'oidc-bearer' | 'token-bearer';

/** Who is calling: what every admin route checks, and what a change is recorded under. */
export interface Principal {
  /** The person (IdP e-mail, else subject) or the token's name. */
  subject: string;
  method: AuthMethod;
  /** As granted, with viewer added when a larger role includes it. */
  roles: Role[];
}

/** The roles a claim's value grants: known names only, and viewer whenever any role is held. */
export function rolesFrom(value: unknown): Role[] {
  const given = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[\s,]+/) : [];
  const held = new Set(ROLES.filter((r) => given.includes(r)));
  if (held.size > 0) held.add('viewer');
  return ROLES.filter((r) => held.has(r));
}

export function hasRole(p: Principal, role: Role): boolean {
  return p.roles.includes(role);
}

export function actorOf(p: Principal): Actor {
  return { type: p.method === 'token-bearer' || p.method === 'link-session' ? 'token' : 'person', name: p.subject };
}

/** A claim by dotted path (`realm_access.roles`), as Keycloak and others nest roles. */
export function claimAt(claims: Record<string, unknown>, path: string): unknown {
  let node: unknown = claims;
  for (const part of path.split('.')) {
    if (typeof node !== 'object' || node === null || Array.isArray(node)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}
