import { randomUUID } from 'node:crypto';
import { Before, IWorldOptions, World, setWorldConstructor } from '@cucumber/cucumber';
import { APIS, CamaraApi, CamaraOperation, operationsOf } from './camara-documents';
import { TokenOptions, TokenSource } from './token-source';

/*
 * One scenario's request and reply. Steps describe the request; it is sent when a step first
 * asks for the reply, so a feature that sets the body after its "When … is sent" line (the
 * subscriptions feature does) still sends what it describes.
 */

/** The token source's options (token-source.ts), and what the kit itself needs. */
export interface KitParameters extends TokenOptions {
  baseUrl: string;
  featuresDir: string;
  /** A sink URL the deployment accepts for subscriptions (nothing is delivered to it unless a swap happens). */
  sinkUrl: string;
  /** Another deployment's test numbers and records (`--data FILE`, binding/demo-data.ts). */
  dataFile?: string;
  /** A partner whose rate limit the kit may exhaust (`--rate-limited-client`): the 429 scenarios. */
  rateLimitedClient?: { id: string; secret: string };
  /** The deployment's optional settings the operator declared (`--setting NAME=VALUE`). */
  settings: Record<string, string>;
}

export type Auth =
  | { kind: 'two-legged' }
  | { kind: 'bearer'; token: string }
  | { kind: 'three-legged'; phoneNumber: string }
  | { kind: 'none' | 'expired' | 'invalid' | 'other-scope' };

export interface Reply {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

const tokenSources = new Map<string, TokenSource>();

export class ConformanceWorld extends World<KitParameters> {
  api: CamaraApi | undefined;
  operation: CamaraOperation | undefined;
  /** The scenario's tag (its first), e.g. `check_sim_swap_2_valid_sim_swap_no_max_age`. */
  tag = '';
  method: string | undefined;
  /** A concrete path (subscription ids filled in), else the operation's. */
  path: string | undefined;
  headers: Record<string, string> = {};
  auth: Auth = { kind: 'two-legged' };
  /** undefined: no body is sent. A string is sent as it is. */
  body: unknown;
  /** The number the scenario is about, once a step has chosen one. */
  phoneNumber: string | undefined;
  /** Facts the binding noted for later checks (expected dates, the expected value). */
  facts: Record<string, unknown> = {};
  private reply: Reply | undefined;

  constructor(options: IWorldOptions<KitParameters>) {
    super(options);
  }

  get tokens(): TokenSource {
    const p = this.parameters;
    const key = `${p.tokenUrl} ${p.clientId}`;
    let t = tokenSources.get(key);
    if (!t) {
      t = new TokenSource(p);
      tokenSources.set(key, t);
    }
    return t;
  }

  /** The operation under a resource path (with or without a leading slash). */
  useResource(resource: string): void {
    const path = resource.startsWith('/') ? resource : `/${resource}`;
    const api = APIS.find((a) => path.startsWith(`${a.root}/`) || path === a.root);
    if (!api) throw new Error(`resource ${resource} is under no API the kit knows`);
    this.api = api;
    const ops = operationsOf(this.parameters.featuresDir, api);
    this.operation = ops.find((o) => o.path === path && o.method === 'POST') ?? ops.find((o) => o.path === path);
    if (!this.operation) throw new Error(`resource ${resource} is not in ${api.yaml}`);
  }

  /** Selects the operation by its operationId (the "When the request "X" is sent" step). */
  useOperation(operationId: string): void {
    if (!this.api) throw new Error('no resource set before the request');
    const op = operationsOf(this.parameters.featuresDir, this.api).find((o) => o.operationId === operationId);
    if (!op) throw new Error(`operation ${operationId} is not in ${this.api.yaml}`);
    this.operation = op;
  }

  /** The operation of the same path with this method (GET on a collection is its list operation). */
  useMethod(method: string): void {
    this.method = method;
    const path = this.op.path;
    const same = operationsOf(this.parameters.featuresDir, this.op.api).find((o) => o.path === path && o.method === method);
    if (same) this.operation = same;
  }

  get op(): CamaraOperation {
    if (!this.operation) throw new Error('no resource set');
    return this.operation;
  }

  /** The body as an object, made one if it is not. */
  bodyObject(): Record<string, unknown> {
    if (typeof this.body !== 'object' || this.body === null || Array.isArray(this.body)) this.body = {};
    return this.body as Record<string, unknown>;
  }

  /** Sets a property by a JSONPath like `$.config.subscriptionDetail.phoneNumber` (or a bare name); undefined removes it. */
  setProperty(jsonPath: string, value: unknown): void {
    const parts = jsonPath.replace(/^\$\.?/, '').split('.').filter(Boolean);
    let node = this.bodyObject();
    for (const p of parts.slice(0, -1)) {
      const next = node[p];
      if (typeof next !== 'object' || next === null || Array.isArray(next)) node[p] = {};
      node = node[p] as Record<string, unknown>;
    }
    const last = parts[parts.length - 1];
    if (value === undefined) delete node[last];
    else node[last] = value;
  }

  async authorization(): Promise<string | undefined> {
    const scopes = this.op.scopes;
    switch (this.auth.kind) {
      case 'none': return undefined;
      case 'bearer': return `Bearer ${this.auth.token}`;
      case 'two-legged': return `Bearer ${await this.tokens.twoLegged(scopes)}`;
      case 'three-legged': return `Bearer ${await this.tokens.threeLegged(this.auth.phoneNumber, scopes)}`;
      case 'expired': return `Bearer ${await this.tokens.expired(scopes)}`;
      case 'invalid': return `Bearer ${await this.tokens.invalid(scopes)}`;
      case 'other-scope': return `Bearer ${await this.tokens.twoLegged(otherScopes(this.op))}`;
      default: throw new Error('unknown token kind');
    }
  }

  /** The reply, sending the request the steps described when no step has sent it yet. */
  async response(): Promise<Reply> {
    this.reply ??= await this.send();
    return this.reply;
  }

  /** The reply if the request was sent; undefined otherwise (never sends). */
  get sentReply(): Reply | undefined {
    return this.reply;
  }

  /** Sends the described request now (a setup call whose reply a later one depends on). */
  async send(): Promise<Reply> {
    const headers: Record<string, string> = { ...this.headers };
    const authorization = await this.authorization();
    if (authorization !== undefined) headers.authorization = authorization;
    const method = this.method ?? this.op.method;
    const init: RequestInit = { method, headers };
    if (this.body !== undefined && method !== 'GET' && method !== 'DELETE') init.body = typeof this.body === 'string' ? this.body : JSON.stringify(this.body);
    else delete headers['content-type'];
    const res = await fetch(`${this.parameters.baseUrl}${this.path ?? this.op.path}`, init);
    const text = await res.text();
    let body: unknown;
    try { body = text === '' ? undefined : JSON.parse(text); } catch { body = undefined; }
    return { status: res.status, headers: res.headers, body, text };
  }

  newCorrelator(): string {
    return randomUUID();
  }
}

/** Scopes the deployment grants that the operation does not take: a token "without the required scope". */
function otherScopes(op: CamaraOperation): string[] {
  const candidates = ['sim-swap:check', 'kyc-tenure:check-tenure', 'number-recycling:check'];
  const other = candidates.find((s) => !op.scopes.includes(s) && !(op.scopes.includes('sim-swap') && s.startsWith('sim-swap')));
  return [other ?? 'kyc-tenure:check-tenure'];
}

setWorldConstructor(ConformanceWorld);

Before(function (this: ConformanceWorld, { pickle }) {
  this.tag = pickle.tags[0]?.name.slice(1) ?? '';
});
