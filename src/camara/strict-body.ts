import { BadRequestError } from '../errors/domain-errors';
import { isPlainObject } from '../kernel/plain-object';

/*
 * Request bodies of the signal APIs (Device Swap, Call Forwarding Signal, Number Recycling).
 * Unlike SIM Swap's, an unknown field is refused (400 INVALID_ARGUMENT, naming it): the specs
 * do not forbid additional properties, but a misspelt `maxage` silently ignored would answer
 * for the default window, not the one the caller meant (docs/decisions.md). The fields
 * themselves go through the API's zod schema (camara-input.ts `parseCamaraBody`) afterwards.
 */

/** A 400 naming the body's own fields beyond `allowed`, before any field is judged; a body that is not an object is the schema's to refuse. */
export function refuseUnknownFields(body: unknown, allowed: readonly string[]): void {
  if (!isPlainObject(body)) return;
  const unknown = Object.keys(body).filter((k) => !allowed.includes(k));
  if (unknown.length === 0) return;
  // The names only, cut short: a field name is caller text, and could be anything.
  const shown = unknown.slice(0, 3).map((k) => JSON.stringify(k.slice(0, 40))).join(', ');
  throw new BadRequestError(`unknown field${unknown.length > 1 ? 's' : ''} ${shown}; this operation takes ${allowed.join(', ')}`);
}
