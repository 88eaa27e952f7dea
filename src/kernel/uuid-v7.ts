import { randomUUID } from 'node:crypto';

/**
 * A UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then random bits. Time-ordered, so
 * audit ids index well; unique without coordination between instances. Built on
 * randomUUID(), whose random bits come from a buffered pool: cheaper per call on the hot path
 * than a fresh randomBytes(); its variant bits are already RFC 9562's.
 */
export function uuidV7(nowMs: number = Date.now()): string {
  const ts = nowMs.toString(16).padStart(12, '0').slice(-12);
  const r = randomUUID(); // xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx
  return `${ts.slice(0, 8)}-${ts.slice(8, 12)}-7${r.slice(15, 18)}-${r.slice(19)}`;
}
