import { z } from 'zod';

/**
 * The one parser of integer settings: plain decimal digits only. Number() would also take
 * `0x20D3`, `8.4e3`, `0b1`, `1.0` or ` 80 `, and z.coerce the same, so the service would start
 * on a value the operator never wrote.
 */
export const digits = (min: number, max: number) => z.string()
  .regex(/^[0-9]+$/, 'must be a whole number in plain decimal digits')
  .transform(Number)
  .pipe(z.number().int().min(min).max(max));
export const int = (min: number, max: number, def: number) => z.string().default(String(def)).pipe(digits(min, max));
/** An integer setting without a default: unset means "none" (the reader decides what that is). */
export const optionalInt = (min: number, max: number) => digits(min, max).optional();
export const bool = (def: boolean) => z.enum(['true', 'false']).default(def ? 'true' : 'false').transform((v) => v === 'true');
export const optionalString = z.string().min(1).optional();
export const httpUrl = z.string().url().refine((u) => /^https?:\/\//.test(u), 'must be an http(s) URL').transform((u) => u.replace(/\/+$/, ''));

/** The settings one component reads, as parsed: what its factory receives. */
export type SettingsOf<Shape extends z.ZodRawShape> = z.infer<z.ZodObject<Shape>>;

/**
 * A cross-field rule of one component, run once every setting parsed on its own. T names the
 * settings the rule reads, so a rule spanning components says which ones.
 */
export type SettingsRule<T> = (c: T, ctx: z.RefinementCtx) => void;

export function issue(ctx: z.RefinementCtx, path: string, message: string): void {
  ctx.addIssue({ code: 'custom', path: [path], message });
}
