import { BadRequestError } from '../errors/domain-errors';
import { isPlainObject } from '../kernel/plain-object';

/*
 * One body rule for every CAMARA API (CONTRACT §13, CAMARA Commonalities from r4): a request
 * body refuses properties its schema does not declare, at any depth, with 400
 * INVALID_ARGUMENT naming the property. A misspelt `maxage` silently ignored would answer for
 * the default window, not the one the caller meant (docs/decisions.md). Only the names are
 * judged here, before any value; the values go through each API's zod schema afterwards.
 */

/** The properties a body object declares: a leaf (`true`) or the shape of a nested object. */
export interface DeclaredShape { readonly [name: string]: true | DeclaredShape }

/** The first undeclared property of `value` against `shape`, as a dotted path (`config.subscriptionDetail.x`); undefined when none. A nested value that is not an object is its schema's to refuse. */
export function undeclaredProperty(value: unknown, shape: DeclaredShape, at = ''): string | undefined {
  if (!isPlainObject(value)) return undefined;
  for (const name of Object.keys(value)) {
    const path = at === '' ? name : `${at}.${name}`;
    if (!Object.hasOwn(shape, name)) return path;
    const inner = shape[name];
    if (inner !== true) {
      const found = undeclaredProperty(value[name], inner, path);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** A shape whose properties are all leaves. */
export function flatShape(names: readonly string[]): DeclaredShape {
  return Object.fromEntries(names.map((n) => [n, true]));
}

/** Control, format (bidirectional overrides…) and separator characters, and lone surrogates. */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}]/gu;

/**
 * The message naming an undeclared property. A name is caller text and could be anything: it is
 * cut short (on a whole character) and its unsafe characters shown as `\uXXXX`, so what a
 * reader sees in a log is what was sent (no right-to-left override reordering it).
 */
export function undeclaredMessage(path: string): string {
  const cut = [...path].slice(0, 80).join('');
  const shown = cut.replace(UNSAFE, (c) => Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''));
  return `unknown property "${shown}"; the schema does not declare it`;
}

/** The 400 for a body with an undeclared property, naming it. */
export function refuseUndeclared(body: unknown, shape: DeclaredShape): void {
  const found = undeclaredProperty(body, shape);
  if (found === undefined) return;
  throw new BadRequestError(undeclaredMessage(found));
}

/**
 * The check of one body type, built once (its shape is not rebuilt per request): a 400 naming
 * the body's own fields beyond `allowed`, before any field is judged; a body that is not an
 * object is the schema's to refuse.
 */
export function onlyFields(allowed: readonly string[]): (body: unknown) => void {
  const shape = flatShape(allowed);
  return (body) => refuseUndeclared(body, shape);
}
