/**
 * The TypeScript side of schema.graphql, written by hand because codegen is not available.
 * Drift is caught twice: SCHEMA_SHAPE must match these types (the compiler checks it via
 * `satisfies SchemaShape`), and schema.graphql must match SCHEMA_SHAPE (a unit test loads
 * the file and compares every object type, field, argument and nullability).
 */

export interface KycFields {
  msisdn: string;
  isPrepaid: boolean;
  isActive: boolean;
  isValid: boolean;
}

export interface SimSwapFields {
  msisdn: string;
  simSwapped: boolean;
  simSwappedAt: Date | null;
}

export interface VerificationErrorFields {
  code: '11111' | '9999';
  desc: string;
}

export interface CustomerVerificationFields {
  msisdn: string;
  kyc: KycFields | null;
  simSwap: SimSwapFields | null;
  error: VerificationErrorFields | null;
}

export interface KycArgs {
  msisdn: string;
  txnId?: string | null;
}

export interface SimSwapArgs {
  msisdn: string;
  txnId?: string | null;
  maxAgeHours?: number | null;
}

export interface VerifyCustomersArgs {
  msisdns: string[];
  maxAgeHours?: number | null;
}

/** The object types of the schema, by GraphQL name. */
export interface ObjectTypes {
  Kyc: KycFields;
  SimSwap: SimSwapFields;
  CustomerVerification: CustomerVerificationFields;
  VerificationError: VerificationErrorFields;
}

/** Query's fields: their arguments and what their resolvers return. */
export interface QueryFields {
  kyc: { args: KycArgs; result: KycFields };
  simSwap: { args: SimSwapArgs; result: SimSwapFields };
  verifyCustomers: { args: VerifyCustomersArgs; result: CustomerVerificationFields[] };
}

/** The scalars beyond GraphQL's own, by name, with the TS type they carry. */
export interface CustomScalars {
  DateTime: Date;
}

type ObjectNameOf<T> = {
  [N in keyof ObjectTypes]: [T] extends [ObjectTypes[N]] ? ([ObjectTypes[N]] extends [T] ? N : never) : never;
}[keyof ObjectTypes];

type NamedTypeOf<T> =
  T extends readonly (infer E)[] ? `[${GraphqlTypeOf<E>}]`
    : T extends string ? 'String'
      : T extends boolean ? 'Boolean'
        : T extends number ? 'Int'
          : T extends CustomScalars['DateTime'] ? 'DateTime'
            : ObjectNameOf<T>;

/** The GraphQL type reference (as graphql-js prints it) a TS type stands for: `string` → `String!`. */
export type GraphqlTypeOf<T> = null extends T
  ? NamedTypeOf<Exclude<T, null | undefined>>
  : `${NamedTypeOf<T> & string}!`;

type FieldsShape<T> = { [K in keyof T]-?: GraphqlTypeOf<T[K]> };

export type SchemaShape = { [N in keyof ObjectTypes]: FieldsShape<ObjectTypes[N]> } & {
  Query: { [F in keyof QueryFields]: { type: GraphqlTypeOf<QueryFields[F]['result']>; args: FieldsShape<QueryFields[F]['args']> } };
};

/** What schema.graphql must declare; the compiler holds it to the interfaces above. */
export const SCHEMA_SHAPE = {
  Query: {
    kyc: { type: 'Kyc!', args: { msisdn: 'String!', txnId: 'String' } },
    simSwap: { type: 'SimSwap!', args: { msisdn: 'String!', txnId: 'String', maxAgeHours: 'Int' } },
    verifyCustomers: { type: '[CustomerVerification!]!', args: { msisdns: '[String!]!', maxAgeHours: 'Int' } },
  },
  Kyc: { msisdn: 'String!', isPrepaid: 'Boolean!', isActive: 'Boolean!', isValid: 'Boolean!' },
  SimSwap: { msisdn: 'String!', simSwapped: 'Boolean!', simSwappedAt: 'DateTime' },
  CustomerVerification: { msisdn: 'String!', kyc: 'Kyc', simSwap: 'SimSwap', error: 'VerificationError' },
  VerificationError: { code: 'String!', desc: 'String!' },
} as const satisfies SchemaShape;

export const CUSTOM_SCALARS = Object.keys({ DateTime: true } satisfies Record<keyof CustomScalars, true>);
