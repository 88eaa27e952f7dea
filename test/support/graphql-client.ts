import { Query } from '../../src/graphql/generated/resolvers-types';
import { DEMO, signedQuery } from './signing';

/** A type of the generated schema as JSON carries it: DateTime is its string. */
export type Wire<T> = T extends Date ? string
  : T extends (infer E)[] ? Wire<E>[]
    : T extends object ? { [K in keyof T]: Wire<T[K]> }
      : T;

/**
 * Query's result as if every field were selected. A query selects fewer; reading a field it
 * did not select gives undefined, which the test's assertion then reports.
 */
export type QueryData = Wire<Query>;

/** An error as formatGraphqlError shapes every one: the REST code and desc in extensions. */
export interface GqlError {
  message: string;
  extensions: { code: string; desc: string };
  locations?: { line: number; column: number }[];
  path?: (string | number)[];
}

export interface GqlBody<D> {
  data?: D | null;
  errors?: GqlError[];
}

export interface GqlReply<D> {
  status: number;
  headers: Headers;
  body: GqlBody<D>;
}

export interface GqlOptions {
  /** The signed query string; the demo partner's by default. */
  qs?: string;
  headers?: Record<string, string>;
}

/**
 * A JSON object with only GraphQL's response keys and errors, if any, in an array. What data
 * holds is the caller's declared D: the query decides it, and the test's assertions check it.
 */
export function graphqlBody<D>(text: string): GqlBody<D> {
  const parsed: unknown = JSON.parse(text);
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new Error(`not a GraphQL response: ${text.slice(0, 200)}`);
  const extra = Object.keys(parsed).filter((k) => !['data', 'errors', 'extensions'].includes(k));
  if (extra.length > 0 || ('errors' in parsed && !Array.isArray(parsed.errors))) throw new Error(`not a GraphQL response: ${text.slice(0, 200)}`);
  return parsed;
}

/** POSTs a query to /graphql as the demo partner (or with the given signed query string). */
export async function gql<D = QueryData>(base: { url: string }, query: string, variables?: object,
  opts: GqlOptions = {}): Promise<GqlReply<D>> {
  const res = await fetch(`${base.url}/graphql?${opts.qs ?? signedQuery(DEMO)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...opts.headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, headers: res.headers, body: graphqlBody<D>(await res.text()) };
}

/** The data of a reply that must have some; fails with the whole body when it has none. */
export function dataOf<D>(r: GqlReply<D>): D {
  if (r.body.data == null) throw new Error(`expected data, got ${JSON.stringify(r.body)}`);
  return r.body.data;
}

/** The first error of a reply that must have one; fails with the whole body when it has none. */
export function firstError(r: GqlReply<unknown>): GqlError {
  const error = r.body.errors?.[0];
  if (!error) throw new Error(`expected an error, got ${JSON.stringify(r.body)}`);
  return error;
}
