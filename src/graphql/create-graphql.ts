import { GraphqlSettings } from '../config/graphql-settings';
import { ServerSettings } from '../config/server-settings';
import { SignalsSettings } from '../config/signals-settings';
import { VerificationSettings } from '../config/verification-settings';
import { Routes } from '../http/routes';
import { GraphqlDeps, createGraphqlMiddleware } from './graphql-middleware';

export interface Graphql {
  routes: Routes;
  /** Stops Apollo: once no request can reach it, so after the listeners drained. */
  close(): Promise<void>;
}

/** The GraphQL API for internal applications (POST /graphql), signed like the legacy routes. */
export async function createGraphql(
  deps: Omit<GraphqlDeps, 'introspection' | 'bodyLimitBytes' | 'monitored' | 'defaultMaxAgeHours'>,
  config: GraphqlSettings & Pick<ServerSettings, 'BODY_LIMIT_BYTES'> & Pick<SignalsSettings, 'DEVICE_SWAP_MONITORED_DAYS'>
    & Pick<VerificationSettings, 'SIM_SWAP_MONITORED_DAYS' | 'SIM_SWAP_MAX_AGE_HOURS'>,
): Promise<Graphql> {
  const monitored = {
    ...(config.SIM_SWAP_MONITORED_DAYS === undefined ? {} : { simSwapDays: config.SIM_SWAP_MONITORED_DAYS }),
    ...(config.DEVICE_SWAP_MONITORED_DAYS === undefined ? {} : { deviceSwapDays: config.DEVICE_SWAP_MONITORED_DAYS }),
  };
  const graphql = await createGraphqlMiddleware({
    ...deps, monitored, defaultMaxAgeHours: config.SIM_SWAP_MAX_AGE_HOURS,
    introspection: config.GRAPHQL_INTROSPECTION, bodyLimitBytes: config.BODY_LIMIT_BYTES,
  });
  return { routes: [graphql.handler], close: () => graphql.stop() };
}
