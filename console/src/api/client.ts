import createClient, { Middleware } from 'openapi-fetch';
import type { components, paths } from './admin-api';

/**
 * The console's one way to the data: the admin API, typed from docs/openapi-admin.yaml
 * (admin-api.d.ts is generated: npm run admin-api:generate). Same origin, so the session
 * cookie goes along by itself; writes carry the session's CSRF token.
 */
export type Schemas = components['schemas'];
export type Partner = Schemas['Partner'];
export type Problem = Schemas['Problem'];
export type Role = Schemas['Role'];

export const API_BASE = '/admin/api/v1';

let csrfToken: string | null = null;

/** Set once the session is known (session.tsx). */
export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

const csrf: Middleware = {
  onRequest({ request }) {
    if (request.method !== 'GET' && request.method !== 'HEAD' && csrfToken) request.headers.set('X-CSRF-Token', csrfToken);
    return request;
  },
};

/** A 401 on a page's call: the session ended (idle or absolute expiry); app.tsx shows the sign-in. */
export const SESSION_ENDED = 'admin-session-ended';
const expiry: Middleware = {
  onResponse({ request, response }) {
    if (response.status === 401 && !request.url.endsWith('/session')) window.dispatchEvent(new Event(SESSION_ENDED));
    return response;
  },
};

export const api = createClient<paths>({ baseUrl: API_BASE, credentials: 'same-origin' });
api.use(csrf, expiry);

/** A failed call as a sentence for the page: the problem's own detail, else its title, else the status. */
export function problemText(error: unknown, response?: Response): string {
  const p = error as Partial<Problem> | undefined;
  const fields = p?.errors?.map((e) => `${e.field}: ${e.message}`).join('; ');
  const text = p?.detail ?? p?.title ?? (response ? `HTTP ${response.status}` : 'the admin API did not answer');
  return fields ? `${text} (${fields})` : text;
}

/** Thrown by `must` so that a page's loader has one failure path. */
export class ApiError extends Error {
  constructor(message: string, readonly status: number | undefined) {
    super(message);
  }
}

/** The data of an openapi-fetch answer, or an ApiError naming what went wrong. */
export function must<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.error !== undefined || result.data === undefined) {
    if (result.response.status === 204) return undefined as T;
    throw new ApiError(problemText(result.error, result.response), result.response.status);
  }
  return result.data;
}
