import type { GraphQLResolveInfo, GraphQLScalarType, GraphQLScalarTypeConfig } from 'graphql';
import type { GraphqlContext } from '../request-context';
export type Maybe<T> = T | null;
export type InputMaybe<T> = Maybe<T>;
export type RequireFields<T, K extends keyof T> = Omit<T, K> & { [P in K]-?: NonNullable<T[P]> };
/** All built-in and custom scalars, mapped to their actual values */
export type Scalars = {
  ID: { input: string; output: string; }
  String: { input: string; output: string; }
  Boolean: { input: boolean; output: boolean; }
  Int: { input: number; output: number; }
  Float: { input: number; output: number; }
  /** yyyy-MM-ddTHH:mm:ss±HH:MM (ISO 8601, numeric offset, never Z), in the service's TIMEZONE. */
  DateTime: { input: Date; output: Date; }
};

/** CAMARA Call Forwarding Signal's services in GraphQL's upper-case enum style. */
export enum CallForwardingService {
  ConditionalBusy = 'CONDITIONAL_BUSY',
  ConditionalNotReachable = 'CONDITIONAL_NOT_REACHABLE',
  ConditionalNoAnswer = 'CONDITIONAL_NO_ANSWER',
  Unconditional = 'UNCONDITIONAL'
}

export type CallForwardingSignal = {
  /** The active call-forwarding services; empty when none. */
  active: Array<CallForwardingService>;
  /** True when calls are forwarded whatever the device's state (CAMARA's unconditional-call-forwardings). */
  unconditional: Scalars['Boolean']['output'];
};

/**
 * How the line is paid for: CAMARA KYC Tenure's contractType values in GraphQL's upper-case
 * enum style. PAYG and PAYM are CAMARA's spelling; CAMARA writes BUSINESS as Business.
 */
export enum ContractType {
  /** A business contract (CAMARA: Business). */
  Business = 'BUSINESS',
  /** Pay as you go (prepaid). */
  Payg = 'PAYG',
  /** Pay monthly (postpaid). */
  Paym = 'PAYM'
}

export type CustomerVerification = {
  /** Why a selected fact is missing; null when every selected fact is present. */
  error: Maybe<VerificationError>;
  /** Null when the number is malformed or the HLR could not be asked. */
  kyc: Maybe<Kyc>;
  /** The number exactly as sent. */
  msisdn: Scalars['String']['output'];
  /** Null when the number is malformed, not a subscriber, or SIM management could not be asked. */
  simSwap: Maybe<SimSwap>;
};

export type DeviceChangeSignal = {
  /**
   * The latest change of device, else the first use of the number in a device (CAMARA Device
   * Swap's latestDeviceChange); null when never used in a device, or unknown, or, for a
   * partner, older than the monitored period.
   */
  latestDeviceChangeAt: Maybe<Scalars['DateTime']['output']>;
  /** Days of device-change history shown to this caller, set exactly when latestDeviceChangeAt is null because the change is older (CAMARA's monitoredPeriod). */
  monitoredPeriod: Maybe<Scalars['Int']['output']>;
};

export type Kyc = {
  /** The valid line's contract (CAMARA contractType); null when the number is not valid. */
  contractType: Maybe<ContractType>;
  isActive: Scalars['Boolean']['output'];
  isPrepaid: Scalars['Boolean']['output'];
  /** Known to the HLR and not terminated. */
  isValid: Scalars['Boolean']['output'];
  /** The number exactly as sent. */
  msisdn: Scalars['String']['output'];
  /** Start of the line's continuous tenure (CAMARA KYC Tenure); null when unknown or the number is not valid. */
  tenureSince: Maybe<Scalars['DateTime']['output']>;
};

/** KYC validity, as the kyc query answers it. */
export type KycSignal = {
  isActive: Scalars['Boolean']['output'];
  isPrepaid: Scalars['Boolean']['output'];
  /** Known to the HLR and not terminated. */
  isValid: Scalars['Boolean']['output'];
};

/**
 * Customer verification for internal apps (CONTRACT §2): the same facts as the REST
 * operations, with real booleans and an ISO 8601 date-time. Docs: docs/graphql.md.
 */
export type Query = {
  /** KYC of one number. With txnId, the REST txn_id rules apply (unique per partner, replayed on retry). */
  kyc: Kyc;
  /**
   * Every fraud and identity signal of up to 100 numbers (CONTRACT §11), one result per number
   * in the order sent. The HLR and SIM management are each asked at most once per distinct
   * number, and only for the signals selected. A signal that cannot be answered is null, with
   * its reason in that item's errors; the number's other signals are still answered.
   */
  signals: Array<Signals>;
  /**
   * SIM swap of one number. maxAgeHours (1-2400) is the look-back window; absent means
   * the configured default. A number that is not a subscriber is an error (11111). A partner
   * (not an internal app) may look back no further than SIM_SWAP_MONITORED_DAYS: more is the
   * error CAMARA SIM Swap gives (11111, "Check monitor period could not exceed ...").
   */
  simSwap: SimSwap;
  /**
   * Up to 100 numbers in one request, one result per number in the order sent. A malformed
   * number or a non-subscriber is reported in that item's error, not as a request failure.
   * Each upstream is asked once per distinct number; only the facts selected are fetched.
   */
  verifyCustomers: Array<CustomerVerification>;
};


/**
 * Customer verification for internal apps (CONTRACT §2): the same facts as the REST
 * operations, with real booleans and an ISO 8601 date-time. Docs: docs/graphql.md.
 */
export type QueryKycArgs = {
  msisdn: Scalars['String']['input'];
  txnId?: InputMaybe<Scalars['String']['input']>;
};


/**
 * Customer verification for internal apps (CONTRACT §2): the same facts as the REST
 * operations, with real booleans and an ISO 8601 date-time. Docs: docs/graphql.md.
 */
export type QuerySignalsArgs = {
  msisdns: Array<Scalars['String']['input']>;
};


/**
 * Customer verification for internal apps (CONTRACT §2): the same facts as the REST
 * operations, with real booleans and an ISO 8601 date-time. Docs: docs/graphql.md.
 */
export type QuerySimSwapArgs = {
  maxAgeHours?: InputMaybe<Scalars['Int']['input']>;
  msisdn: Scalars['String']['input'];
  txnId?: InputMaybe<Scalars['String']['input']>;
};


/**
 * Customer verification for internal apps (CONTRACT §2): the same facts as the REST
 * operations, with real booleans and an ISO 8601 date-time. Docs: docs/graphql.md.
 */
export type QueryVerifyCustomersArgs = {
  maxAgeHours?: InputMaybe<Scalars['Int']['input']>;
  msisdns: Array<Scalars['String']['input']>;
};

/** The signals of the signals query. */
export enum Signal {
  CallForwarding = 'CALL_FORWARDING',
  DeviceSwap = 'DEVICE_SWAP',
  Kyc = 'KYC',
  SimSwap = 'SIM_SWAP',
  Tenure = 'TENURE'
}

/** Why a signal is missing: the REST failure pair (11111 request problem, 9999 system problem, retry later). */
export type SignalError = {
  code: Scalars['String']['output'];
  desc: Scalars['String']['output'];
  /** The signal not answered; null when the whole number was refused (a malformed msisdn). */
  signal: Maybe<Signal>;
};

/** The signals of one number (CONTRACT §11). Each is null when it could not be answered: see errors. */
export type Signals = {
  /** From the HLR. Error when the number is not a subscriber or the HLR does not report forwarding. */
  callForwarding: Maybe<CallForwardingSignal>;
  /** From the HLR. Error when the number is not a subscriber. */
  deviceSwap: Maybe<DeviceChangeSignal>;
  /** One per signal selected but not answered (and one without a signal for a malformed number); empty when all were answered. */
  errors: Array<SignalError>;
  /** From the HLR; a number unknown to it is simply not valid. */
  kyc: Maybe<KycSignal>;
  /** The number exactly as sent. */
  msisdn: Scalars['String']['output'];
  /** From SIM management. Error when the number has no SIM. */
  simSwap: Maybe<SimChangeSignal>;
  /** From the HLR. Error when the number is not a subscriber. */
  tenure: Maybe<TenureSignal>;
};

export type SimChangeSignal = {
  /** The latest SIM swap, else the current SIM's activation (CAMARA SIM Swap's latestSimChange); null when unknown, or, for a partner, older than the monitored period. */
  latestSimChangeAt: Maybe<Scalars['DateTime']['output']>;
  /** Days of SIM-change history shown to this caller, set exactly when latestSimChangeAt is null because the change is older (CAMARA's monitoredPeriod). */
  monitoredPeriod: Maybe<Scalars['Int']['output']>;
};

export type SimSwap = {
  /**
   * The latest SIM change, whatever the look-back window: the latest swap, else the current
   * SIM's activation (CAMARA retrieve-date's latestSimChange); null when unknown, or, for a
   * partner, older than the monitored period (then monitoredPeriod is set).
   */
  latestSimChangeAt: Maybe<Scalars['DateTime']['output']>;
  /** Days of SIM-change history shown to this caller, set exactly when latestSimChangeAt is null because the change is older (CAMARA's monitoredPeriod). */
  monitoredPeriod: Maybe<Scalars['Int']['output']>;
  /** The number exactly as sent. */
  msisdn: Scalars['String']['output'];
  /** True when the latest SIM swap lies within the look-back window. */
  simSwapped: Scalars['Boolean']['output'];
  /** When the SIM was swapped; null unless simSwapped is true. */
  simSwappedAt: Maybe<Scalars['DateTime']['output']>;
};

export type TenureSignal = {
  contractType: ContractType;
  /** Start of the line's continuous tenure (its current subscriber); null when unknown. */
  since: Maybe<Scalars['DateTime']['output']>;
};

/** The REST failure pair: code 11111 (request problem) or 9999 (system problem, retry later). */
export type VerificationError = {
  code: Scalars['String']['output'];
  desc: Scalars['String']['output'];
};



export type ResolverTypeWrapper<T> = Promise<T> | T;

export type Resolver<TResult, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = ResolverFn<TResult, TParent, TContext, TArgs>;

export type ResolverFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => Promise<TResult> | TResult;

export type SubscriptionSubscribeFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => AsyncIterable<TResult> | Promise<AsyncIterable<TResult>>;

export type SubscriptionResolveFn<TResult, TParent, TContext, TArgs> = (
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;

export interface SubscriptionSubscriberObject<TResult, TKey extends string, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<{ [key in TKey]: TResult }, TParent, TContext, TArgs>;
  resolve?: SubscriptionResolveFn<TResult, { [key in TKey]: TResult }, TContext, TArgs>;
}

export interface SubscriptionResolverObject<TResult, TParent, TContext, TArgs> {
  subscribe: SubscriptionSubscribeFn<any, TParent, TContext, TArgs>;
  resolve: SubscriptionResolveFn<TResult, any, TContext, TArgs>;
}

export type SubscriptionObject<TResult, TKey extends string, TParent, TContext, TArgs> =
  | SubscriptionSubscriberObject<TResult, TKey, TParent, TContext, TArgs>
  | SubscriptionResolverObject<TResult, TParent, TContext, TArgs>;

export type SubscriptionResolver<TResult, TKey extends string, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> =
  | ((...args: any[]) => SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>)
  | SubscriptionObject<TResult, TKey, TParent, TContext, TArgs>;

export type TypeResolveFn<TTypes, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (
  parent: TParent,
  context: TContext,
  info: GraphQLResolveInfo
) => Maybe<TTypes> | Promise<Maybe<TTypes>>;

export type IsTypeOfResolverFn<T = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>> = (obj: T, context: TContext, info: GraphQLResolveInfo) => boolean | Promise<boolean>;

export type NextResolverFn<T> = () => Promise<T>;

export type DirectiveResolverFn<TResult = Record<PropertyKey, never>, TParent = Record<PropertyKey, never>, TContext = Record<PropertyKey, never>, TArgs = Record<PropertyKey, never>> = (
  next: NextResolverFn<TResult>,
  parent: TParent,
  args: TArgs,
  context: TContext,
  info: GraphQLResolveInfo
) => TResult | Promise<TResult>;





/** Mapping between all available schema types and the resolvers types */
export type ResolversTypes = {
  Boolean: ResolverTypeWrapper<Scalars['Boolean']['output']>;
  CallForwardingService: CallForwardingService;
  CallForwardingSignal: ResolverTypeWrapper<CallForwardingSignal>;
  ContractType: ContractType;
  CustomerVerification: ResolverTypeWrapper<CustomerVerification>;
  DateTime: ResolverTypeWrapper<Scalars['DateTime']['output']>;
  DeviceChangeSignal: ResolverTypeWrapper<DeviceChangeSignal>;
  Int: ResolverTypeWrapper<Scalars['Int']['output']>;
  Kyc: ResolverTypeWrapper<Kyc>;
  KycSignal: ResolverTypeWrapper<KycSignal>;
  Query: ResolverTypeWrapper<Record<PropertyKey, never>>;
  Signal: Signal;
  SignalError: ResolverTypeWrapper<SignalError>;
  Signals: ResolverTypeWrapper<Signals>;
  SimChangeSignal: ResolverTypeWrapper<SimChangeSignal>;
  SimSwap: ResolverTypeWrapper<SimSwap>;
  String: ResolverTypeWrapper<Scalars['String']['output']>;
  TenureSignal: ResolverTypeWrapper<TenureSignal>;
  VerificationError: ResolverTypeWrapper<VerificationError>;
};

/** Mapping between all available schema types and the resolvers parents */
export type ResolversParentTypes = {
  Boolean: Scalars['Boolean']['output'];
  CallForwardingSignal: CallForwardingSignal;
  CustomerVerification: CustomerVerification;
  DateTime: Scalars['DateTime']['output'];
  DeviceChangeSignal: DeviceChangeSignal;
  Int: Scalars['Int']['output'];
  Kyc: Kyc;
  KycSignal: KycSignal;
  Query: Record<PropertyKey, never>;
  SignalError: SignalError;
  Signals: Signals;
  SimChangeSignal: SimChangeSignal;
  SimSwap: SimSwap;
  String: Scalars['String']['output'];
  TenureSignal: TenureSignal;
  VerificationError: VerificationError;
};

export type CallForwardingSignalResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['CallForwardingSignal'] = ResolversParentTypes['CallForwardingSignal']> = {
  active?: Resolver<Array<ResolversTypes['CallForwardingService']>, ParentType, ContextType>;
  unconditional?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type CustomerVerificationResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['CustomerVerification'] = ResolversParentTypes['CustomerVerification']> = {
  error?: Resolver<Maybe<ResolversTypes['VerificationError']>, ParentType, ContextType>;
  kyc?: Resolver<Maybe<ResolversTypes['Kyc']>, ParentType, ContextType>;
  msisdn?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  simSwap?: Resolver<Maybe<ResolversTypes['SimSwap']>, ParentType, ContextType>;
};

export interface DateTimeScalarConfig extends GraphQLScalarTypeConfig<ResolversTypes['DateTime'], any> {
  name: 'DateTime';
}

export type DeviceChangeSignalResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['DeviceChangeSignal'] = ResolversParentTypes['DeviceChangeSignal']> = {
  latestDeviceChangeAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  monitoredPeriod?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
};

export type KycResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['Kyc'] = ResolversParentTypes['Kyc']> = {
  contractType?: Resolver<Maybe<ResolversTypes['ContractType']>, ParentType, ContextType>;
  isActive?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  isPrepaid?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  isValid?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  msisdn?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  tenureSince?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
};

export type KycSignalResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['KycSignal'] = ResolversParentTypes['KycSignal']> = {
  isActive?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  isPrepaid?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  isValid?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
};

export type QueryResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['Query'] = ResolversParentTypes['Query']> = {
  kyc: Resolver<ResolversTypes['Kyc'], ParentType, ContextType, RequireFields<QueryKycArgs, 'msisdn'>>;
  signals: Resolver<Array<ResolversTypes['Signals']>, ParentType, ContextType, RequireFields<QuerySignalsArgs, 'msisdns'>>;
  simSwap: Resolver<ResolversTypes['SimSwap'], ParentType, ContextType, RequireFields<QuerySimSwapArgs, 'msisdn'>>;
  verifyCustomers: Resolver<Array<ResolversTypes['CustomerVerification']>, ParentType, ContextType, RequireFields<QueryVerifyCustomersArgs, 'msisdns'>>;
};

export type SignalErrorResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['SignalError'] = ResolversParentTypes['SignalError']> = {
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  desc?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  signal?: Resolver<Maybe<ResolversTypes['Signal']>, ParentType, ContextType>;
};

export type SignalsResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['Signals'] = ResolversParentTypes['Signals']> = {
  callForwarding?: Resolver<Maybe<ResolversTypes['CallForwardingSignal']>, ParentType, ContextType>;
  deviceSwap?: Resolver<Maybe<ResolversTypes['DeviceChangeSignal']>, ParentType, ContextType>;
  errors?: Resolver<Array<ResolversTypes['SignalError']>, ParentType, ContextType>;
  kyc?: Resolver<Maybe<ResolversTypes['KycSignal']>, ParentType, ContextType>;
  msisdn?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  simSwap?: Resolver<Maybe<ResolversTypes['SimChangeSignal']>, ParentType, ContextType>;
  tenure?: Resolver<Maybe<ResolversTypes['TenureSignal']>, ParentType, ContextType>;
};

export type SimChangeSignalResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['SimChangeSignal'] = ResolversParentTypes['SimChangeSignal']> = {
  latestSimChangeAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  monitoredPeriod?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
};

export type SimSwapResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['SimSwap'] = ResolversParentTypes['SimSwap']> = {
  latestSimChangeAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
  monitoredPeriod?: Resolver<Maybe<ResolversTypes['Int']>, ParentType, ContextType>;
  msisdn?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  simSwapped?: Resolver<ResolversTypes['Boolean'], ParentType, ContextType>;
  simSwappedAt?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
};

export type TenureSignalResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['TenureSignal'] = ResolversParentTypes['TenureSignal']> = {
  contractType?: Resolver<ResolversTypes['ContractType'], ParentType, ContextType>;
  since?: Resolver<Maybe<ResolversTypes['DateTime']>, ParentType, ContextType>;
};

export type VerificationErrorResolvers<ContextType = GraphqlContext, ParentType extends ResolversParentTypes['VerificationError'] = ResolversParentTypes['VerificationError']> = {
  code?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
  desc?: Resolver<ResolversTypes['String'], ParentType, ContextType>;
};

export type Resolvers<ContextType = GraphqlContext> = {
  CallForwardingSignal?: CallForwardingSignalResolvers<ContextType>;
  CustomerVerification?: CustomerVerificationResolvers<ContextType>;
  DateTime?: GraphQLScalarType;
  DeviceChangeSignal?: DeviceChangeSignalResolvers<ContextType>;
  Kyc?: KycResolvers<ContextType>;
  KycSignal?: KycSignalResolvers<ContextType>;
  Query?: QueryResolvers<ContextType>;
  SignalError?: SignalErrorResolvers<ContextType>;
  Signals?: SignalsResolvers<ContextType>;
  SimChangeSignal?: SimChangeSignalResolvers<ContextType>;
  SimSwap?: SimSwapResolvers<ContextType>;
  TenureSignal?: TenureSignalResolvers<ContextType>;
  VerificationError?: VerificationErrorResolvers<ContextType>;
};

