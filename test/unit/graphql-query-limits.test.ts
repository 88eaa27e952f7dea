import { buildSchema, getIntrospectionQuery, parse, validate } from 'graphql';
import { loadSchemaSource } from '../../src/graphql/graphql-middleware';
import { MAX_COST, MAX_DEPTH, costLimitRule, depthLimitRule, verificationCostModel } from '../../src/graphql/query-limits';

const schema = buildSchema(loadSchemaSource());
const model = verificationCostModel(100);

/** The cost the rule computes, read from its refusal at a limit of 0. */
function costOf(query: string, variables?: Record<string, unknown>): number {
  const [refusal] = validate(schema, parse(query), [costLimitRule(0, model, variables)]);
  if (!refusal) return 0;
  const m = /^query cost (\d+) exceeds the limit of 0 upstream lookups/.exec(refusal.message);
  if (!m) throw new Error(`unexpected message: ${refusal.message}`);
  return Number(m[1]);
}

const depthErrors = (query: string, max = MAX_DEPTH, s = schema) =>
  validate(s, parse(query), [depthLimitRule(max)]).map((e) => e.message);

describe('the cost limit counts upstream lookups', () => {
  it('when kyc or simSwap fields are selected, then each counts once, aliases included', () => {
    expect(costOf('{ kyc(msisdn: "1") { isValid } }')).toBe(1);
    expect(costOf('{ a: kyc(msisdn: "1") { isValid } b: kyc(msisdn: "2") { isValid } c: simSwap(msisdn: "1") { simSwapped } }')).toBe(3);
  });

  it('when a batch selects facts, then it is charged per number for each fact, and nothing for msisdn or error alone', () => {
    expect(costOf('{ verifyCustomers(msisdns: ["1", "2", "3"]) { kyc { isValid } simSwap { simSwapped } } }')).toBe(6);
    expect(costOf('{ verifyCustomers(msisdns: ["1", "2", "3"]) { kyc { isValid } } }')).toBe(3);
    expect(costOf('{ verifyCustomers(msisdns: ["1", "2", "3"]) { msisdn error { code } } }')).toBe(0);
  });

  it('when signals are selected, then a number costs 1 for SIM swap and 1 for all its HLR signals together', () => {
    expect(costOf('{ signals(msisdns: ["1", "2", "3"]) { deviceSwap { latestDeviceChangeAt } callForwarding { unconditional } tenure { since } kyc { isValid } } }')).toBe(3);
    expect(costOf('{ signals(msisdns: ["1", "2", "3"]) { simSwap { latestSimChangeAt } kyc { isValid } } }')).toBe(6);
    expect(costOf('{ signals(msisdns: ["1", "2", "3"]) { msisdn errors { code } } }')).toBe(0);
    // Aliases are separate lookups as far as the rule can tell.
    expect(costOf('{ a: signals(msisdns: ["1"]) { kyc { isValid } } b: signals(msisdns: ["2"]) { tenure { since } } }')).toBe(2);
    const every = 'query($m: [String!]!) { signals(msisdns: $m) { simSwap { latestSimChangeAt } deviceSwap { latestDeviceChangeAt } callForwarding { active } tenure { since } kyc { isValid } } }';
    expect(costOf(every, { m: Array.from({ length: 100 }, (_, i) => String(i)) })).toBe(MAX_COST);
  });

  it('when facts are selected through fragments and inline fragments, then they are counted', () => {
    expect(costOf(`{ verifyCustomers(msisdns: ["1", "2"]) { ...f ... on CustomerVerification { simSwap { simSwapped } } } }
      fragment f on CustomerVerification { kyc { isValid } }`)).toBe(4);
  });

  it('when a batch comes from a variable, then it is charged for its real length when the variables are known, else for its maximum', () => {
    const q = 'query($m: [String!]!) { verifyCustomers(msisdns: $m) { kyc { isValid } simSwap { simSwapped } } }';
    expect(costOf(q, { m: ['1', '2', '3', '4', '5', '6', '7'] })).toBe(14);
    expect(costOf(q, { m: '1' })).toBe(2);
    expect(costOf(q)).toBe(200);
  });

  it('when a batch is over 100 numbers, then it is charged as 100, so the resolver, not the cost rule, explains the oversize batch', () => {
    const list = JSON.stringify(Array.from({ length: 150 }, (_, i) => String(i)));
    expect(costOf(`{ verifyCustomers(msisdns: ${list}) { kyc { isValid } } }`)).toBe(100);
  });

  it('when a query is one full batch of both facts, then it passes, and anything beyond is refused with a clear message', () => {
    const q = 'query($m: [String!]!) { verifyCustomers(msisdns: $m) { kyc { isValid } simSwap { simSwapped } } kyc(msisdn: "1") { isValid } }';
    const full = Array.from({ length: 100 }, (_, i) => String(i));
    expect(validate(schema, parse(q), [costLimitRule(MAX_COST, model, { m: full.slice(1) })])).toEqual([]);
    expect(validate(schema, parse(q), [costLimitRule(MAX_COST, model, { m: full })]).map((e) => e.message))
      .toEqual(['query cost 201 exceeds the limit of 200 upstream lookups (each kyc or simSwap per number counts 1)']);
  });

  it('when fragments form a cycle, then counting terminates (graphql-js reports the cycle on its own)', () => {
    expect(costOf(`{ verifyCustomers(msisdns: ["1"]) { ...a } }
      fragment a on CustomerVerification { ...b } fragment b on CustomerVerification { ...a kyc { isValid } }`)).toBe(1);
  });
});

describe('the depth limit', () => {
  const recursive = buildSchema('type Query { node: Node } type Node { id: ID child: Node }');

  it('when a query is nested deeper than the limit, counting through fragments, then it is refused', () => {
    expect(depthErrors('{ node { child { id } } }', 3, recursive)).toEqual([]);
    expect(depthErrors('{ node { child { child { id } } } }', 3, recursive)).toEqual(['query depth 4 exceeds the limit of 3']);
    expect(depthErrors('{ node { ...f } } fragment f on Node { child { child { id } } }', 3, recursive))
      .toEqual(['query depth 4 exceeds the limit of 3']);
  });

  it('when fragments form a cycle, then the depth rule terminates', () => {
    expect(depthErrors('{ node { ...f } } fragment f on Node { child { ...f } }', 3, recursive)).toEqual([]);
  });

  it('when the query is the deepest our schema allows, then it passes', () => {
    expect(depthErrors('{ verifyCustomers(msisdns: []) { kyc { isValid } simSwap { simSwappedAt } error { code } } }')).toEqual([]);
  });

  it('when the query is introspection, then it is not counted (GRAPHQL_INTROSPECTION governs it)', () => {
    expect(depthErrors(getIntrospectionQuery())).toEqual([]);
  });
});
