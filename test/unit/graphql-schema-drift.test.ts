import { ApolloServer } from '@apollo/server';
import { GraphQLField, GraphQLObjectType, buildSchema, isObjectType, isScalarType, isSpecifiedScalarType } from 'graphql';
import { AuditRecorder } from '../../src/domain/audit-recorder';
import { loadSchemaSource } from '../../src/transport/graphql/graphql-middleware';
import { createResolvers } from '../../src/transport/graphql/resolvers';
import { CUSTOM_SCALARS, SCHEMA_SHAPE } from '../../src/transport/graphql/schema-shape';

const typeDefs = loadSchemaSource();
const schema = buildSchema(typeDefs);
const ownTypes = Object.values(schema.getTypeMap()).filter((t) => !t.name.startsWith('__'));

function fieldTypes(t: GraphQLObjectType): Record<string, string> {
  return Object.fromEntries(Object.values(t.getFields()).map((f) => [f.name, f.type.toString()]));
}

function queryField(f: GraphQLField<unknown, unknown>): { type: string; args: Record<string, string> } {
  return { type: f.type.toString(), args: Object.fromEntries(f.args.map((a) => [a.name, a.type.toString()])) };
}

const resolvers = () => createResolvers({
  service: { verify: jest.fn(), admit: jest.fn() },
  normalise: (raw) => raw,
  formatDate: (d) => d.toISOString(),
  audit: new AuditRecorder({ trail: { record() {}, healthy: () => true }, clock: { nowMs: () => 0 }, failClosed: false }),
});

describe('schema.graphql and the hand-written resolver types', () => {
  it('declare the same object types', () => {
    expect(ownTypes.filter(isObjectType).map((t) => t.name).sort()).toEqual(Object.keys(SCHEMA_SHAPE).sort());
  });

  it('declare, for every object type, the same fields with the same types and nullability', () => {
    const { Query: _query, ...objects } = SCHEMA_SHAPE;
    for (const [name, fields] of Object.entries(objects)) {
      expect({ [name]: fieldTypes(schema.getType(name) as GraphQLObjectType) }).toEqual({ [name]: fields });
    }
  });

  it('declare the same Query fields with the same arguments and result types', () => {
    const fields = schema.getQueryType()!.getFields();
    expect(Object.fromEntries(Object.values(fields).map((f) => [f.name, queryField(f)]))).toEqual(SCHEMA_SHAPE.Query);
  });

  it('declare the same custom scalars', () => {
    const custom = ownTypes.filter((t) => isScalarType(t) && !isSpecifiedScalarType(t)).map((t) => t.name);
    expect(custom.sort()).toEqual([...CUSTOM_SCALARS].sort());
  });

  it('include CONTRACT §2\'s minimum: kyc, simSwap and verifyCustomers with their fields', () => {
    expect(SCHEMA_SHAPE.Query.kyc.args).toMatchObject({ msisdn: 'String!', txnId: 'String' });
    expect(SCHEMA_SHAPE.Query.simSwap.args).toMatchObject({ msisdn: 'String!', txnId: 'String', maxAgeHours: 'Int' });
    expect(SCHEMA_SHAPE.Query.verifyCustomers).toMatchObject({ type: '[CustomerVerification!]!', args: { msisdns: '[String!]!' } });
    expect(Object.keys(SCHEMA_SHAPE.CustomerVerification)).toEqual(['msisdn', 'kyc', 'simSwap', 'error']);
  });
});

describe('Apollo building the schema from schema.graphql', () => {
  it('accepts the real resolvers', () => {
    expect(() => new ApolloServer({ typeDefs, resolvers: resolvers() })).not.toThrow();
  });

  it('refuses a resolver for a field the schema does not declare', () => {
    const extra = { ...resolvers(), Kyc: { isBlacklisted: () => false } };
    expect(() => new ApolloServer({ typeDefs, resolvers: extra })).toThrow('Kyc.isBlacklisted defined in resolvers, but not in schema');
  });

  it('refuses a resolver for a type the schema does not declare', () => {
    const extra = { ...resolvers(), Subscriber: { msisdn: () => '' } };
    expect(() => new ApolloServer({ typeDefs, resolvers: extra })).toThrow(/Subscriber.* not in schema/);
  });
});
