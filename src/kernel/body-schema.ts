import { z } from 'zod/v4';
import { isPlainObject, ownFields } from './plain-object';

/*
 * Helpers for request bodies read through zod (its v4 API: its transforms and refinements cost
 * a tenth of v3's, which matters on the legacy routes' hot path). Integers are checked with
 * Number.isInteger, not v4's `.int()`, which also refuses anything beyond 2^53 as "not an
 * integer" where the range check should answer (CAMARA's OUT_OF_RANGE for maxAge 1e20). A body answers with the one problem a caller
 * fixes first: a schema lists its fields in the order they are checked, zod reports issues in
 * that order, and the first issue is the answer.
 */

/** The error a problem becomes beyond a plain 400 (e.g. OUT_OF_RANGE); each parser maps it to its error class. */
export interface ProblemParams { kind?: string }

/** Reads only the named own properties of an object (see ownFields) before `schema` sees it. */
export function ownFieldsOf<T extends z.ZodType>(names: readonly string[], schema: T) {
  return z.preprocess((value) => (isPlainObject(value) ? ownFields(value, names) : value), schema);
}

/** An object of the shape's own properties, unknown ones ignored; anything else, or nothing, fails with `message`. */
export function ownObject<Shape extends z.core.$ZodLooseShape>(shape: Shape, message: string) {
  return ownFieldsOf(Object.keys(shape), z.object(shape, { error: message }));
}

/** Inside a transform or superRefine: record the problem; the transform's result is then never used. */
export function fail(ctx: z.RefinementCtx, message: string, kind?: string): never {
  ctx.issues.push(kind === undefined
    ? { code: 'custom', message, input: ctx.value }
    : { code: 'custom', message, input: ctx.value, params: { kind } satisfies ProblemParams });
  return z.NEVER;
}

/** A type error's message: `absent` when nothing was sent, `wrong` for any other value. */
export function typeMessage(absent: string, wrong: string) {
  return { error: (issue: { input?: unknown }) => (issue.input === undefined ? absent : wrong) };
}

export type BodyResult<T> = { ok: true; value: T } | { ok: false; message: string; kind?: string };

/** The parsed value, or the first problem with it. */
export function parseBody<T>(schema: z.ZodType<T>, body: unknown): BodyResult<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return { ok: true, value: parsed.data };
  const issue = parsed.error.issues[0];
  const kind = issue.code === 'custom' ? (issue.params as ProblemParams | undefined)?.kind : undefined;
  return kind === undefined ? { ok: false, message: issue.message } : { ok: false, message: issue.message, kind };
}
