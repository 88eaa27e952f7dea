import { SettingsOf, bool } from './setting-types';

/** The GraphQL API for internal applications. */
export const graphqlSettings = {
  GRAPHQL_INTROSPECTION: bool(false),
};

export type GraphqlSettings = SettingsOf<typeof graphqlSettings>;
