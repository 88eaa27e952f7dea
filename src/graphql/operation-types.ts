import { GraphQLError, OperationTypeNode, ValidationRule } from 'graphql';

export const QUERY_ONLY_MESSAGE = 'only query operations are supported';

/**
 * The schema has only Query (CONTRACT §2). graphql-js would accept a mutation or subscription
 * at validation and fail it at execution with an error of no known kind: a 9999 with HTTP 200,
 * logged at error level and counted against the error budget. It is the caller's mistake, so
 * it is refused here with the other validation errors: HTTP 400, extensions.code 11111. The
 * whole document is refused, even when the operation chosen by operationName is a query.
 */
export const queryOperationsOnly: ValidationRule = (context) => ({
  OperationDefinition(op) {
    if (op.operation !== OperationTypeNode.QUERY) {
      context.reportError(new GraphQLError(QUERY_ONLY_MESSAGE, { nodes: [op] }));
    }
  },
});
