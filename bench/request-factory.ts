import { randomBytes } from 'node:crypto';
import { signatureFor } from '../src/partners/signature';
import { syntheticSubscriber } from '../src/simulator/synthetic';
import { SimSubscriber } from '../src/simulator/subscriber';

/** What one load run sends; every request of it gets a fresh txn_id and a current signature. */
export type RequestKind = 'kyc-hot' | 'kyc-distinct' | 'sim-distinct' | 'graphql-batch' | 'kyc-bad-sig' | 'kyc-no-ts' | 'camara-check-hot' | 'mix-m1'
  | 'device-check-hot' | 'graphql-signals' | 'kyc-match-hot';

/** The scope each CAMARA kind's Bearer token needs; the run fetches one token holding those of its kinds (M1's partners fetch their own). */
export const KIND_SCOPES: Partial<Record<RequestKind, string>> = { 'camara-check-hot': 'sim-swap:check', 'device-check-hot': 'device-swap:check', 'kyc-match-hot': 'kyc-match:match' };

export interface Credentials {
  apiKey: string;
  secret: string;
  /** An access token of the built-in issuer for this partner (CAMARA kinds), fetched once per run. */
  bearer?: string;
  /** M1's CAMARA partners: one access token each (several partners share the instance). */
  mixBearers?: string[];
}

export interface BuiltRequest {
  path: string;
  body: string;
  /** Every header of the request when set (autocannon's setupRequest replaces them as a whole). */
  headers?: Record<string, string>;
}

/** Demo-fixture numbers: real subscribers in the simulator, so a cache hit is a positive answer. */
export const HOT_NUMBERS = ['255712000001', '255712000002', '255712000003', '255712000005', '255712000006', '255712000007', '255712000008'];

/** 50 synthetic subscribers for the GraphQL batch, the same in every request (cache hits after the first). */
export const BATCH_NUMBERS = subscribersFrom(650_000_000, 50);

/** Synthetic subscribers that have been used in a device: a Device Swap cache hit answers 200 for them. */
export const DEVICE_HOT_NUMBERS = subscribersFrom(660_000_000, 7, (s) => s.status !== 'terminated' && typeof s.deviceFirstSeenAt === 'string');

const KYC = '/eai/verify_customer/query/kyc';
const SIM_SWAP = '/eai/verify_customer/query/sim_swap';
const BATCH_QUERY = 'query($m:[String!]!){verifyCustomers(msisdns:$m){msisdn kyc{isValid isActive isPrepaid} simSwap{simSwapped simSwappedAt} error{code desc}}}';
const CAMARA_CHECK = '/sim-swap/v2/check';
const JSON_HEADERS = { 'content-type': 'application/json' };
const KYC_MATCH = '/kyc-match/v0.4/match';
/**
 * K1's bodies: the demo numbers with an identity record, each asked a few attributes (some
 * matching, one not, so a score is computed). The record is fetched from customer records for
 * every request: nothing of it is cached.
 */
const KYC_MATCH_BODIES = [
  '{"phoneNumber":"+255712000011","givenName":"Jose","familyName":"Nunez","birthdate":"1987-04-21"}',
  '{"phoneNumber":"+255712000012","name":"Neema Mwakyusa","birthdate":"1992-09-30","gender":"FEMALE"}',
  '{"phoneNumber":"+255712000013","nameKanaZenkaku":"サトウ ユキ","birthdate":"1979-01-23","country":"JP"}',
  '{"phoneNumber":"+255712000015","name":"Baraka Kimaro","givenName":"Barack","birthdate":"2001-06-15"}',
];
const BATCH_BODY = JSON.stringify({ query: BATCH_QUERY, variables: { m: BATCH_NUMBERS } });
const DEVICE_CHECK = '/device-swap/v1/check';
/** Every signal of the same 50 numbers: one HLR and one SIM lookup per number, cache hits after the first. */
const SIGNALS_QUERY = 'query($m:[String!]!){signals(msisdns:$m){msisdn simSwap{latestSimChangeAt} deviceSwap{latestDeviceChangeAt} '
  + 'callForwarding{active unconditional} tenure{since contractType} kyc{isValid isActive isPrepaid} errors{signal code desc}}}';
const SIGNALS_BODY = JSON.stringify({ query: SIGNALS_QUERY, variables: { m: BATCH_NUMBERS } });

/**
 * Builds requests for one kind. Signatures change once a second, so they are computed once a
 * second: the load generator must spend its CPU on sending, not hashing.
 */
export class RequestFactory {
  private readonly txnPrefix = `${randomBytes(3).toString('hex')}-`;
  private txnCounter = 0;
  private numberCounter: number;
  private hot = 0;
  private signedAtS = -1;
  private query = '';
  private camaraHeaders?: Record<string, string>;
  private mixSlot = 0;
  private mixPartner = 0;
  private readonly mixQueries = new Map<string, [number, string]>();

  constructor(private readonly kind: RequestKind, private readonly creds: Credentials, numberBase: number) {
    this.numberCounter = numberBase;
  }

  next(): BuiltRequest {
    if (this.kind === 'camara-check-hot') return this.camaraCheck(CAMARA_CHECK, HOT_NUMBERS);
    if (this.kind === 'device-check-hot') return this.camaraCheck(DEVICE_CHECK, DEVICE_HOT_NUMBERS);
    if (this.kind === 'mix-m1') return this.mixed();
    if (this.kind === 'kyc-match-hot') return { path: KYC_MATCH, body: KYC_MATCH_BODIES[this.hot++ % KYC_MATCH_BODIES.length], headers: this.bearerHeaders() };
    const q = this.currentQuery();
    switch (this.kind) {
      case 'kyc-hot':
      case 'kyc-bad-sig':
      case 'kyc-no-ts':
        return { path: `${KYC}?${q}`, body: this.body(HOT_NUMBERS[this.hot++ % HOT_NUMBERS.length]) };
      case 'kyc-distinct':
        return { path: `${KYC}?${q}`, body: this.body(this.distinctNumber(false)) };
      case 'sim-distinct':
        return { path: `${SIM_SWAP}?${q}`, body: this.body(this.distinctNumber(true)) };
      case 'graphql-batch':
        return { path: `/graphql?${q}`, body: BATCH_BODY };
      case 'graphql-signals':
        return { path: `/graphql?${q}`, body: SIGNALS_BODY };
      default: {
        const never: never = this.kind;
        throw new Error(`unknown request kind ${String(never)}`);
      }
    }
  }

  /** A CAMARA check (SIM swap, Device Swap) of a hot number: a Bearer token instead of a signature, no txn_id. */
  private camaraCheck(path: string, numbers: readonly string[]): BuiltRequest {
    const msisdn = numbers[this.hot++ % numbers.length];
    return { path, body: `{"phoneNumber":"+${msisdn}","maxAge":240}`, headers: this.bearerHeaders() };
  }

  /** The run's Bearer token headers, built once. */
  private bearerHeaders(): Record<string, string> {
    if (!this.camaraHeaders) {
      if (!this.creds.bearer) throw new Error(`${this.kind} needs an access token (creds.bearer)`);
      this.camaraHeaders = { 'content-type': 'application/json', authorization: `Bearer ${this.creds.bearer}` };
    }
    return this.camaraHeaders;
  }

  /**
   * M1, a realistic mix, in a fixed cycle of 20: 14 KYC cache misses (70 %, numbers never sent
   * before in the run, 5 % of them not subscribers), 4 CAMARA SIM swap checks (20 %, Bearer
   * tokens of M1's partners in turn, subscriber numbers of the synthetic space, mostly misses),
   * 1 legacy SIM swap (5 %, a miss) and 1 KYC with a bad signature (5 %, 401).
   */
  private mixed(): BuiltRequest {
    const slot = this.mixSlot++ % 20;
    const headers = JSON_HEADERS;
    if (slot < 14) return { path: `${KYC}?${this.queryFor('kyc-distinct')}`, body: this.body(this.distinctNumber(false)), headers };
    if (slot < 18) {
      const bearers = this.creds.mixBearers ?? [];
      if (bearers.length === 0) throw new Error('mix-m1 needs M1\'s partners\' access tokens (creds.mixBearers)');
      const authorization = `Bearer ${bearers[this.mixPartner++ % bearers.length]}`;
      return { path: CAMARA_CHECK, body: `{"phoneNumber":"+${this.distinctNumber(true, true)}","maxAge":240}`, headers: { ...JSON_HEADERS, authorization } };
    }
    if (slot === 18) return { path: `${SIM_SWAP}?${this.queryFor('kyc-distinct')}`, body: this.body(this.distinctNumber(true)), headers };
    return { path: `${KYC}?${this.queryFor('kyc-bad-sig')}`, body: this.body(HOT_NUMBERS[this.hot++ % HOT_NUMBERS.length]), headers };
  }

  /** The signed query of a kind, computed once a second per kind (the mix needs two). */
  private queryFor(kind: 'kyc-distinct' | 'kyc-bad-sig'): string {
    const nowS = Math.floor(Date.now() / 1000);
    const cached = this.mixQueries.get(kind);
    if (cached && cached[0] === nowS) return cached[1];
    const { apiKey, secret } = this.creds;
    const ts = String(nowS);
    const query = `api_key=${apiKey}&timestamp=${ts}&sig=${signatureFor('md5', apiKey, kind === 'kyc-bad-sig' ? `${secret}x` : secret, ts)}`;
    this.mixQueries.set(kind, [nowS, query]);
    return query;
  }

  private body(msisdn: string): string {
    return `{"txn_id":"${this.txnPrefix}${(this.txnCounter++).toString(36)}","msisdn":"${msisdn}"}`;
  }

  /**
   * A number never sent before in this run; for SIM swap, one the synthetic simulator knows (no
   * 404s); for CAMARA (`live`), one whose subscription is not terminated either (CAMARA's 404).
   */
  private distinctNumber(subscribersOnly: boolean, live = false): string {
    for (;;) {
      const n = `2556${String(this.numberCounter++).padStart(8, '0')}`;
      if (!subscribersOnly) return n;
      const s = syntheticSubscriber(n, new Date(0));
      if (s !== null && (!live || s.status !== 'terminated')) return n;
    }
  }

  private currentQuery(): string {
    const nowS = Math.floor(Date.now() / 1000);
    if (nowS === this.signedAtS) return this.query;
    this.signedAtS = nowS;
    const { apiKey, secret } = this.creds;
    const ts = String(nowS);
    switch (this.kind) {
      case 'kyc-no-ts':
        // CONTRACT §1.5: no timestamp parameter; the sig is made with the current second.
        this.query = `api_key=${apiKey}&sig=${signatureFor('md5', apiKey, secret, ts)}`;
        break;
      case 'kyc-bad-sig':
        this.query = `api_key=${apiKey}&timestamp=${ts}&sig=${signatureFor('md5', apiKey, `${secret}x`, ts)}`;
        break;
      default:
        this.query = `api_key=${apiKey}&timestamp=${ts}&sig=${signatureFor('md5', apiKey, secret, ts)}`;
    }
    return this.query;
  }
}

/** The first `count` numbers from 255<start> on that the synthetic simulator knows (and that `keep` accepts). */
function subscribersFrom(start: number, count: number, keep: (s: SimSubscriber) => boolean = () => true): string[] {
  const out: string[] = [];
  for (let n = start; out.length < count; n++) {
    const msisdn = `255${n}`;
    const s = syntheticSubscriber(msisdn, new Date(0));
    if (s !== null && keep(s)) out.push(msisdn);
  }
  return out;
}
