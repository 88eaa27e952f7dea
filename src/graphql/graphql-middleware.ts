import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { expressMiddleware } from '@as-integrations/express5';
import { RequestHandler, Router } from 'express';
import { buildSchema } from 'graphql';
import { AuditRecorder } from '../audit/audit-recorder';
import { Authenticator } from '../partners/authenticator';
import { MsisdnNormaliser } from '../kernel/msisdn';
import { OffsetDateTimeFormatter } from '../kernel/offset-date-time';
import { VerificationService } from '../verification/verification-service';
import { Logger } from '../observability/logger';
import { Clock } from '../kernel/clock';
import { MonitoredPeriods } from './caller-view';
import { repoRoot } from '../kernel/repo-paths';
import { GraphqlContext, createContext } from './request-context';
import { formatGraphqlError, responsePlugin } from './graphql-errors';
import { queryOperationsOnly } from './operation-types';
import { MAX_COST, MAX_DEPTH, costLimitPlugin, depthLimitRule, verificationCostModel } from './query-limits';
import { authenticateGraphql, graphqlBody, graphqlRefusal, postOnly, tagGraphql } from './request-guards';
import { createResolvers } from './resolvers';
import { MAX_BATCH } from './verify-customers';

export const GRAPHQL_PATH = '/graphql';

export interface GraphqlDeps {
  service: VerificationService;
  authenticator: Authenticator;
  normalise: MsisdnNormaliser;
  formatDate: OffsetDateTimeFormatter;
  logger: Logger;
  /** GRAPHQL_INTROSPECTION: off by default, as the schema is for internal apps. */
  introspection: boolean;
  bodyLimitBytes: number;
  /** One audit record per field or batch item answered. */
  audit: AuditRecorder;
  clock: Clock;
  /** What a partner (not an internal app) may see of SIM and device changes (CONTRACT §2). */
  monitored: MonitoredPeriods;
  /** SIM_SWAP_MAX_AGE_HOURS: the look-back when none is asked (shortened to a partner's monitored period). */
  defaultMaxAgeHours: number;
}

export interface GraphqlMiddleware {
  /** POST /graphql; mount before the 404. */
  handler: RequestHandler;
  /** Stops Apollo; call it once the HTTP server has drained (server.ts owns the drain). */
  stop(): Promise<void>;
}

/** schema.graphql at the repository root is the schema: resolvers are attached to it, never the reverse. */
export function loadSchemaSource(): string {
  return readFileSync(join(repoRoot(), 'schema.graphql'), 'utf8');
}

/**
 * Apollo Server on the same Express app (CONTRACT §2). Resolvers go through Apollo's schema
 * builder, which refuses a resolver for a field the schema does not declare.
 */
const MAX_TOKENS = 2000;

export async function createGraphqlMiddleware(deps: GraphqlDeps): Promise<GraphqlMiddleware> {
  const typeDefs = loadSchemaSource();
  const apollo = new ApolloServer<GraphqlContext>({
    typeDefs,
    resolvers: createResolvers({ ...deps, dateTimeDescription: buildSchema(typeDefs).getType('DateTime')?.description ?? undefined }),
    introspection: deps.introspection,
    // "Did you mean ...?" would describe the schema to a caller who may not introspect it.
    hideSchemaDetailsFromClientErrors: !deps.introspection,
    csrfPrevention: true,
    persistedQueries: false,
    includeStacktraceInErrorResponses: false,
    // main.ts owns the signals; Apollo's own handlers would race its shutdown.
    stopOnTerminationSignals: false,
    validationRules: [queryOperationsOnly, depthLimitRule(MAX_DEPTH)],
    // Refused at parse time, before validation: a deep fragment chain would otherwise exhaust
    // graphql-js's recursion in the fragment-cycle rule (a 500). 2,000 tokens fits a full
    // 100-number batch several times over.
    parseOptions: { maxTokens: MAX_TOKENS },
    formatError: formatGraphqlError,
    logger: deps.logger,
    plugins: [
      // The default landing page loads Apollo Sandbox from the internet.
      ApolloServerPluginLandingPageDisabled(),
      // Cache hints are not used (every answer is personal data, sent with Cache-Control: no-store
      // by the security headers), and the cache-control plugin wraps every field's resolver: in a
      // 50-number signals query that was a quarter of the allocations (docs/performance.md).
      ApolloServerPluginCacheControlDisabled(),
      costLimitPlugin(MAX_COST, verificationCostModel(MAX_BATCH)),
      responsePlugin(deps.logger),
    ],
  });
  await apollo.start();

  const router = Router();
  router.post(GRAPHQL_PATH, tagGraphql, authenticateGraphql(deps.authenticator), graphqlBody(deps.bodyLimitBytes),
    expressMiddleware(apollo, { context: async ({ res }) => createContext(res, deps.service, deps.monitored) }));
  router.all(GRAPHQL_PATH, tagGraphql, postOnly);
  router.use(graphqlRefusal(deps.logger));
  return { handler: router, stop: () => apollo.stop() };
}
