import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ASTNode, IntrospectionQuery, buildClientSchema, buildSchema, getIntrospectionQuery, lexicographicSortSchema, parse, print, printSchema, visit,
} from 'graphql';
import { gql } from '../support/graphql-client';
import { Harness, startHarness } from '../support/harness';

const SCHEMA_FILE = join(__dirname, '../../schema.graphql');
const GUIDE = join(__dirname, '../../docs/graphql.md');

/** An SDL as graphql-js prints it, types in name order: layout and order do not count, descriptions do. */
function normalised(sdl: string): string {
  return printSchema(lexicographicSortSchema(buildSchema(sdl)));
}

/** The same without descriptions: docs/graphql.md shows the shape, schema.graphql explains it. */
function shapeOf(sdl: string): string {
  const bare = visit(parse(sdl), {
    enter(node: ASTNode) {
      return 'description' in node && node.description ? { ...node, description: undefined } : undefined;
    },
  });
  return normalised(print(bare));
}

describe('the GraphQL schema, the file and the guide', () => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ env: { GRAPHQL_INTROSPECTION: 'true' } }); });
  afterAll(() => h?.close());

  it('when the served schema is introspected, then it prints exactly as schema.graphql, descriptions included', async () => {
    const r = await gql<IntrospectionQuery>(h, getIntrospectionQuery());
    expect(r.body.errors).toBeUndefined();
    if (!r.body.data) throw new Error('no introspection data');
    const served = printSchema(lexicographicSortSchema(buildClientSchema(r.body.data)));
    expect(served).toBe(normalised(readFileSync(SCHEMA_FILE, 'utf8')));
  });

  it('when docs/graphql.md shows the schema, then its block has every type and field of schema.graphql', () => {
    const block = /```graphql\n([\s\S]*?)```/.exec(readFileSync(GUIDE, 'utf8'))?.[1];
    if (block === undefined) throw new Error('docs/graphql.md has no ```graphql block');
    expect(shapeOf(block)).toBe(shapeOf(readFileSync(SCHEMA_FILE, 'utf8')));
  });
});
