// GraphQL Code Generator: the resolver types of schema.graphql, committed to
// src/graphql/generated/resolvers-types.ts. `npm run graphql:generate` rewrites the
// file after a schema change; `npm run graphql:check` (part of `npm test`) fails while it is stale.
import type { CodegenConfig } from '@graphql-codegen/cli';

export const RESOLVER_TYPES_PATH = 'src/graphql/generated/resolvers-types.ts';

const config: CodegenConfig = {
  overwrite: true,
  schema: 'schema.graphql',
  generates: {
    [RESOLVER_TYPES_PATH]: {
      plugins: ['typescript', 'typescript-resolvers'],
      config: {
        // Every resolver gets GraphqlContext: the partner, the per-request loaders, the response.
        contextType: '../request-context#GraphqlContext',
        // DateTime carries a Date inside the service; the scalar formats it (result-fields.ts).
        scalars: { DateTime: 'Date' },
        useTypeImports: true,
        skipTypename: true,
        // Nullable fields are present as null, never absent; every Query field needs a resolver.
        avoidOptionals: { field: true, query: true, resolvers: false, object: false, inputValue: false, defaultValue: false, mutation: false, subscription: false },
        // Plain functions, so the resolvers can be called and composed as functions.
        makeResolverTypeCallable: true,
      },
    },
  },
};

export default config;
