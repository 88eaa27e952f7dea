import { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerErrorCode, ApolloServerValidationErrorCode } from '@apollo/server/errors';
import { GraphQLError, GraphQLFormattedError } from 'graphql';
import { BadRequestError } from '../errors/domain-errors';
import { GraphqlFailure, catalogEntryOf, graphqlFailureOf, logUnexpected } from '../errors/error-lookup';
import { Logger } from '../observability/logger';
import { GraphqlContext } from './request-context';

/** Apollo's own codes for a request the caller got wrong: each is a 11111, never a 9999. */
const CALLER_CODES: ReadonlySet<unknown> = new Set([
  ApolloServerErrorCode.GRAPHQL_PARSE_FAILED,
  ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED,
  ApolloServerErrorCode.BAD_USER_INPUT,
  ApolloServerErrorCode.BAD_REQUEST,
  ApolloServerErrorCode.OPERATION_RESOLUTION_FAILURE,
  ApolloServerErrorCode.PERSISTED_QUERY_NOT_FOUND,
  ApolloServerErrorCode.PERSISTED_QUERY_NOT_SUPPORTED,
]);

/** True for errors Apollo or graphql-js raise about the request itself (parse, validation, CSRF). */
function isCallerError(err: unknown): boolean {
  return err instanceof GraphQLError && CALLER_CODES.has(err.extensions.code);
}

/** Apollo's advice ("pass introspection: true to ApolloServer") is for us, not for the caller. */
function callerReason(err: GraphQLError): string {
  if (err.extensions.validationErrorCode === ApolloServerValidationErrorCode.INTROSPECTION_DISABLED) {
    return 'introspection is disabled on this server';
  }
  return err.message.trim();
}

/**
 * The failure behind a GraphQL error, however graphql-js or Apollo wrapped it; Apollo's own
 * refusals of the request become the BadRequestError they are.
 */
function failureBehind(err: unknown): unknown {
  let e = err;
  for (let depth = 0; depth < 3 && e instanceof GraphQLError && e.originalError; depth++) e = e.originalError;
  if (catalogEntryOf(e) === undefined && isCallerError(err)) return new BadRequestError(callerReason(err as GraphQLError));
  return e;
}

/** The catalog's GraphQL column for the failure: a domain error's reason or a caller error's message; anything else is a bare 9999. */
export function failureOf(err: unknown): GraphqlFailure {
  return graphqlFailureOf(failureBehind(err));
}

/**
 * Runs a shared REST validator on a GraphQL argument: its refusal names the argument the
 * caller used (txnId, maxAgeHours) instead of the REST body field (txn_id, max_age).
 */
export function validateArgument<T>(argName: string, restName: string, validate: () => T): T {
  try {
    return validate();
  } catch (err) {
    if (err instanceof BadRequestError && err.reason.startsWith(restName)) {
      throw new BadRequestError(argName + err.reason.slice(restName.length));
    }
    throw err;
  }
}

/** A failure as a GraphQL error entry: the message is the REST desc, extensions carry code and desc. */
export function renderFailure(f: Pick<GraphqlFailure, 'code' | 'desc'>): GraphQLFormattedError {
  return { message: f.desc, extensions: { code: f.code, desc: f.desc } };
}

/**
 * Apollo's formatError: the one place a GraphQL failure becomes what the caller sees.
 * Extensions are rebuilt, not copied, so no stack trace or internal detail can leak.
 */
export function formatGraphqlError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError {
  const base = renderFailure(failureOf(error));
  return {
    ...base,
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
  };
}

/** The whole-response code for logs and metrics: any 9999 wins, then any 11111, else success. */
export function responseCode(errors: readonly GraphQLFormattedError[] | undefined): string {
  if (!errors || errors.length === 0) return '00000';
  return errors.some((e) => e.extensions?.code === '9999') ? '9999' : '11111';
}

/**
 * What a GraphQL answer says outside its body: the result code for the request log and
 * metrics, Retry-After when a field was rate limited, Idempotent-Replayed when a txnId field
 * was answered from its stored answer. Unexpected errors are logged here, with the request's
 * correlator, because formatError shows the caller only a bare 9999.
 */
export function responsePlugin(logger: Logger): ApolloServerPlugin<GraphqlContext> {
  return {
    async requestDidStart() {
      return {
        async didEncounterErrors({ errors, contextValue }) {
          for (const err of errors) {
            const failure = failureOf(err);
            if (failure.retryAfterS !== undefined) {
              contextValue.retryAfterS = Math.max(contextValue.retryAfterS ?? 0, failure.retryAfterS);
            }
            if (failure.unexpected) {
              logUnexpected(logger, err.originalError ?? err, { correlator: contextValue.res.locals.correlator, path: err.path },
                'unexpected GraphQL error');
            }
          }
        },
        async willSendResponse({ response, contextValue }) {
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : undefined;
          contextValue.res.locals.code = responseCode(errors);
          if (contextValue.retryAfterS !== undefined) response.http.headers.set('retry-after', String(contextValue.retryAfterS));
          if (contextValue.replayed) response.http.headers.set('idempotent-replayed', 'true');
        },
      };
    },
  };
}
