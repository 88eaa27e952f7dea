import { ApolloServerPlugin } from '@apollo/server';
import { ApolloServerErrorCode } from '@apollo/server/errors';
import {
  FieldNode, GraphQLCompositeType, GraphQLError, Kind, SelectionSetNode, ValidationContext, ValidationRule, ValueNode,
  getNamedType, isCompositeType, isInterfaceType, isObjectType, validate,
} from 'graphql';

/**
 * Depth and cost limits as graphql-js validation rules, so a refused query costs no
 * resolver work and is answered 400 like any invalid query (extensions.code 11111).
 * Both walk each operation with its fragments expanded, as execution would. Depth is
 * checked with the other validation rules; cost once the variables are known (see
 * costLimitPlugin), so a batch passed as a variable is charged for its real length.
 */

/** The schema is three levels deep today (verifyCustomers → kyc → isValid); one spare level. */
export const MAX_DEPTH = 4;

/** One full batch (100 numbers, both facts or every signal): the most upstream lookups one request may cause. */
export const MAX_COST = 200;

export interface CostModel {
  /** Upstream lookups one occurrence of `Type.field` may cause. Unlisted fields cost 0. */
  fieldCost: Readonly<Record<string, number>>;
  /** List fields whose size an argument sets: the list's length, capped at max (the resolver refuses more). */
  listSize: Readonly<Record<string, { arg: string; max: number }>>;
  /**
   * Fields answered from one lookup they share (every HLR signal of a number): each group costs
   * once per selection level, however many of its fields are selected.
   */
  sharedCost?: Readonly<Record<string, { group: string; cost: number }>>;
}

const HLR_SIGNAL = { group: 'hlr', cost: 1 };

/**
 * Our schema's costs: every KYC or SIM-swap fact is one upstream lookup per number; of the
 * signals, SIM swap is one SIM lookup, and all of them (SIM swap too: only a subscriber has a
 * SIM change to tell) share one HLR lookup.
 */
export function verificationCostModel(maxBatch: number): CostModel {
  return {
    fieldCost: { 'Query.kyc': 1, 'Query.simSwap': 1, 'CustomerVerification.kyc': 1, 'CustomerVerification.simSwap': 1, 'Signals.simSwap': 1 },
    listSize: { 'Query.verifyCustomers': { arg: 'msisdns', max: maxBatch }, 'Query.signals': { arg: 'msisdns', max: maxBatch } },
    sharedCost: { 'Signals.simSwap': HLR_SIGNAL, 'Signals.deviceSwap': HLR_SIGNAL, 'Signals.callForwarding': HLR_SIGNAL, 'Signals.tenure': HLR_SIGNAL, 'Signals.kyc': HLR_SIGNAL },
  };
}

/** Introspection is governed by GRAPHQL_INTROSPECTION, and its standard query is deep by design. */
const INTROSPECTION_ROOTS = new Set(['__schema', '__type']);

type Visit = (set: SelectionSetNode, parent: GraphQLCompositeType | undefined, onField: FieldVisitor) => void;
type FieldVisitor = (field: { key: string; node: FieldNode; child?: GraphQLCompositeType }) => void;

/**
 * Calls onField for every field of one selection set level, expanding fragments in place.
 * A fragment already being expanded is skipped: NoFragmentCyclesRule reports cycles, this
 * only keeps our walk finite meanwhile.
 */
function levelWalker(context: ValidationContext): Visit {
  const schema = context.getSchema();
  const expanding = new Set<string>();
  const walk: Visit = (set, parent, onField) => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const def = parent && (isObjectType(parent) || isInterfaceType(parent)) ? parent.getFields()[sel.name.value] : undefined;
        const named = def ? getNamedType(def.type) : undefined;
        onField({ key: `${parent?.name ?? '?'}.${sel.name.value}`, node: sel, child: named && isCompositeType(named) ? named : undefined });
      } else {
        const name = sel.kind === Kind.FRAGMENT_SPREAD ? sel.name.value : undefined;
        const fragment = sel.kind === Kind.INLINE_FRAGMENT ? sel : context.getFragment(sel.name.value);
        if (!fragment || (name !== undefined && expanding.has(name))) continue;
        const cond = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : parent;
        if (name !== undefined) expanding.add(name);
        walk(fragment.selectionSet, cond && isCompositeType(cond) ? cond : undefined, onField);
        if (name !== undefined) expanding.delete(name);
      }
    }
  };
  return walk;
}

export function depthLimitRule(maxDepth: number): ValidationRule {
  return (context) => {
    const walk = levelWalker(context);
    const depthOf = (set: SelectionSetNode, parent: GraphQLCompositeType | undefined, level: number): number => {
      let deepest = level;
      walk(set, parent, ({ node, child }) => {
        if (INTROSPECTION_ROOTS.has(node.name.value)) return;
        const d = node.selectionSet ? depthOf(node.selectionSet, child, level + 1) : level + 1;
        deepest = Math.max(deepest, d);
      });
      return deepest;
    };
    return {
      OperationDefinition(op) {
        const depth = depthOf(op.selectionSet, context.getSchema().getRootType(op.operation) ?? undefined, 0);
        if (depth > maxDepth) {
          context.reportError(new GraphQLError(`query depth ${depth} exceeds the limit of ${maxDepth}`, { nodes: [op] }));
        }
      },
    };
  };
}

/** A list argument's length; a variable's value when known, else the most it may hold. */
function listLength(value: ValueNode | undefined, max: number, variables: Readonly<Record<string, unknown>> | undefined): number {
  if (value?.kind === Kind.LIST) return Math.min(value.values.length, max);
  if (value?.kind === Kind.VARIABLE && variables && value.name.value in variables) {
    const v = variables[value.name.value];
    // A lone value is coerced to a list of one; null fails validation of the non-null argument.
    if (Array.isArray(v)) return Math.min(v.length, max);
    return v === null || v === undefined ? 0 : 1;
  }
  return max;
}

/** Without variables, a list passed as a variable counts as its maximum. */
export function costLimitRule(maxCost: number, model: CostModel, variables?: Readonly<Record<string, unknown>>): ValidationRule {
  return (context) => {
    const walk = levelWalker(context);
    const costOf = (set: SelectionSetNode, parent: GraphQLCompositeType | undefined, times: number): number => {
      let total = 0;
      const groups = new Set<string>();
      walk(set, parent, ({ key, node, child }) => {
        total += (model.fieldCost[key] ?? 0) * times;
        const shared = model.sharedCost?.[key];
        if (shared && !groups.has(shared.group)) {
          groups.add(shared.group);
          total += shared.cost * times;
        }
        if (!node.selectionSet) return;
        const list = model.listSize[key];
        const size = list ? listLength(node.arguments?.find((a) => a.name.value === list.arg)?.value, list.max, variables) : 1;
        total += costOf(node.selectionSet, child, times * size);
      });
      return total;
    };
    return {
      OperationDefinition(op) {
        const cost = costOf(op.selectionSet, context.getSchema().getRootType(op.operation) ?? undefined, 1);
        if (cost > maxCost) {
          context.reportError(new GraphQLError(
            `query cost ${cost} exceeds the limit of ${maxCost} upstream lookups (each kyc or simSwap per number counts 1)`,
            { nodes: [op] },
          ));
        }
      },
    };
  };
}

/**
 * Runs costLimitRule when Apollo has resolved the operation and the variables are at hand,
 * before any resolver runs. Its refusal is a validation failure: HTTP 400, code 11111.
 */
export function costLimitPlugin<TContext extends object>(maxCost: number, model: CostModel): ApolloServerPlugin<TContext> {
  return {
    async requestDidStart() {
      return {
        async didResolveOperation({ schema, document, request }) {
          const [refusal] = validate(schema, document, [costLimitRule(maxCost, model, request.variables ?? {})]);
          if (refusal) {
            throw new GraphQLError(refusal.message, {
              nodes: refusal.nodes,
              extensions: { code: ApolloServerErrorCode.GRAPHQL_VALIDATION_FAILED, http: { status: 400 } },
            });
          }
        },
      };
    },
  };
}
