import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Role, Schemas } from '../api/client';

export type Session = Schemas['Session'];

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession outside a signed-in console');
  return session;
}

/** partner-admin and compliance each include viewer (CONTRACT §12). */
export function hasRole(session: Session, role: Role): boolean {
  return role === 'viewer' ? session.roles.length > 0 : session.roles.includes(role);
}

/** A control a role may not use is not drawn at all (docs/console.md). */
export function useCan(role: Role): boolean {
  return hasRole(useSession(), role);
}
