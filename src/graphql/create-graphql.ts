import { GraphqlSettings } from '../config/graphql-settings';
import { ServerSettings } from '../config/server-settings';
import { Routes } from '../http/routes';
import { GraphqlDeps, createGraphqlMiddleware } from './graphql-middleware';

export interface Graphql {
  routes: Routes;
  /** Stops Apollo: once no request can reach it, so after the listeners drained. */
  close(): Promise<void>;
}

/** The GraphQL API for internal applications (POST /graphql), signed like the legacy routes. */
export async function createGraphql(
  deps: Omit<GraphqlDeps, 'introspection' | 'bodyLimitBytes'>,
  config: GraphqlSettings & Pick<ServerSettings, 'BODY_LIMIT_BYTES'>,
): Promise<Graphql> {
  const graphql = await createGraphqlMiddleware({ ...deps, introspection: config.GRAPHQL_INTROSPECTION, bodyLimitBytes: config.BODY_LIMIT_BYTES });
  return { routes: [graphql.handler], close: () => graphql.stop() };
}
