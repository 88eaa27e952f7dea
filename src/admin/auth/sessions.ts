import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { Clock } from '../../kernel/clock';
import { Principal } from './principal';

export interface Session {
  principal: Principal;
  csrfToken: string;
  createdMs: number;
  lastSeenMs: number;
}

export interface SessionTimes {
  idleMs: number;
  maxMs: number;
}

/** Sessions above this many: the least recently used goes first (a bound on memory, not a policy). */
const MAX_SESSIONS = 10_000;

function keyOf(id: string): string {
  return createHash('sha256').update(id).digest('base64url');
}

/**
 * The console's sessions, in this instance's memory (docs/console.md, "Sessions"): the cookie
 * holds a random id, the map its digest, so a heap dump holds no usable cookie. A session ends
 * after `idleMs` without a request and `maxMs` after sign-in, whatever happens; sign-out ends it
 * at once. The CSRF token is per session and compared in constant time.
 */
export class SessionStore {
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly clock: Clock, private readonly times: SessionTimes) {}

  /** A new session; its id (the cookie's value) is returned once. */
  create(principal: Principal): { id: string; session: Session } {
    const id = randomBytes(32).toString('base64url');
    const now = this.clock.nowMs();
    const session = { principal, csrfToken: randomBytes(24).toString('base64url'), createdMs: now, lastSeenMs: now };
    if (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    this.sessions.set(keyOf(id), session);
    return { id, session };
  }

  /** The live session of a cookie value, its idle clock restarted; undefined when unknown or expired. */
  touch(id: string): Session | undefined {
    const key = keyOf(id);
    const s = this.sessions.get(key);
    if (!s) return undefined;
    const now = this.clock.nowMs();
    if (now - s.lastSeenMs >= this.times.idleMs || now - s.createdMs >= this.times.maxMs) {
      this.sessions.delete(key);
      return undefined;
    }
    s.lastSeenMs = now;
    // Re-inserted: the map's order is then least recently used first.
    this.sessions.delete(key);
    this.sessions.set(key, s);
    return s;
  }

  end(id: string): void {
    this.sessions.delete(keyOf(id));
  }

  /** When a session ends if nothing else happens: the earlier of idle and absolute expiry. */
  expiries(s: Session): { idleExpiresAt: string; expiresAt: string } {
    return {
      idleExpiresAt: new Date(Math.min(s.lastSeenMs + this.times.idleMs, s.createdMs + this.times.maxMs)).toISOString(),
      expiresAt: new Date(s.createdMs + this.times.maxMs).toISOString(),
    };
  }
}

export function csrfMatches(s: Session, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(s.csrfToken);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
