import { createHash, timingSafeEqual } from 'node:crypto';
import { parseScope, scopesForOperations } from './access-scopes';
import { AuthFailureThrottle } from '../partners/auth-failure-throttle';
import { RateLimitedError } from '../errors/domain-errors';
import { InvalidClientError, InvalidScopeError } from './oauth-errors';
import { AccessTokenSigner } from './ports/access-tokens';
import { AuthFailureReason, Metrics } from '../verification/ports/metrics';
import { Partner, PartnerRegistry, validSecrets } from '../partners/partners';
import { Clock } from '../kernel/clock';
import { RateLimiter } from '../verification/ports/state-store';

export interface ClientCredentialsRequest {
  clientId: string;
  clientSecret: string;
  /** The `scope` parameter as sent; undefined when absent. */
  scope?: string;
  /** The caller's address as the throttle counts it (the transport's clientAddressKey, as the legacy routes). */
  address?: string;
}

export interface IssuedAccessToken {
  token: string;
  expiresInS: number;
  scopes: readonly string[];
  partner: Partner;
}

export interface ClientCredentialsGrantDeps {
  registry: PartnerRegistry;
  signer: AccessTokenSigner;
  /** Judges which secrets are still valid (a rotation's old secret expires on its own). */
  clock: Clock;
  /** The same throttle the legacy signatures use: a client secret is the partner's secret. */
  throttle?: AuthFailureThrottle;
  /** Failures counted as `interface="oauth"`, beside the signatures', so a guesser here shows in the same alerts. */
  metrics?: Metrics;
  /**
   * The partner rate limit the verification routes charge (same limiter, same bucket): a token
   * request is one more request of the partner, so a client cannot hammer the token endpoint
   * past the rate it was sold. Absent: token requests are not rate limited.
   */
  rateLimiter?: RateLimiter;
}

const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
/** Compared against when the client is unknown, so the answer takes as long as for a known one. */
const NO_SECRET = digest('\0no such client\0');
/** A partner holds one secret, two during a rotation's grace (CONTRACT §12). */
const MAX_VALID_SECRETS = 2;

/**
 * The OAuth 2.0 client credentials grant (RFC 6749 §4.4, CONTRACT §7): the client is a
 * partner (client id = apiKey, secret = its secret), the scopes are those its operations imply.
 */
export class ClientCredentialsGrant {
  constructor(private readonly deps: ClientCredentialsGrantDeps) {}

  async issue(req: ClientCredentialsRequest): Promise<IssuedAccessToken> {
    const { throttle, registry } = this.deps;
    const wait = throttle?.retryAfterS(req.clientId, req.address);
    if (wait !== undefined) {
      this.deps.metrics?.authFailure('throttled', 'oauth');
      throw new RateLimitedError('too many failed client authentications', wait);
    }

    const partner = registry.find(req.clientId);
    const secretId = this.matchingSecret(req.clientSecret, partner);
    if (!partner || secretId === undefined || !partner.enabled) {
      throttle?.recordFailure(req.clientId, req.address);
      const reason: AuthFailureReason = !partner ? 'unknown_key' : secretId === undefined ? 'bad_secret' : 'disabled';
      this.deps.metrics?.authFailure(reason, 'oauth');
      throw new InvalidClientError('client authentication failed');
    }

    // After authentication: only a proven partner's budget is spent, never by a guesser.
    if (partner.rateLimit && this.deps.rateLimiter) {
      const decision = await this.deps.rateLimiter.take(partner.apiKey, partner.rateLimit);
      if (!decision.allowed) throw new RateLimitedError('rate limit exceeded', Math.max(1, Math.ceil(decision.retryAfterMs / 1000)));
    }

    const allowed = scopesForOperations(partner.operations);
    let scopes: readonly string[] = allowed;
    if (req.scope !== undefined) {
      const asked = parseScope(req.scope);
      if (!asked) throw new InvalidScopeError('scope is not a space-separated list of scope tokens');
      const refused = asked.find((s) => !(allowed as readonly string[]).includes(s));
      if (refused !== undefined) throw new InvalidScopeError('a requested scope is unknown or not allowed for this client');
      scopes = allowed.filter((s) => asked.includes(s));
    }
    if (scopes.length === 0) throw new InvalidScopeError('this client may hold no scope');

    // The token names the secret it was obtained with: revoking that secret ends the token too.
    const signed = await this.deps.signer.sign({ clientId: partner.apiKey, scopes, secretId });
    return { token: signed.token, expiresInS: signed.expiresInS, scopes, partner };
  }

  /**
   * The id of the valid secret the client sent, if any. Both sides are hashed (equal lengths, so
   * timingSafeEqual applies) and as many comparisons are made whichever matches, or none, or
   * whether the client exists: the answer's timing tells nothing.
   */
  private matchingSecret(clientSecret: string, partner: Partner | undefined): string | undefined {
    const given = digest(clientSecret);
    const valid = partner ? validSecrets(partner, this.deps.clock.nowMs()) : [];
    let matched: string | undefined;
    for (let i = 0; i < MAX_VALID_SECRETS; i++) {
      const s = valid[i];
      if (timingSafeEqual(given, s ? digest(s.secret) : NO_SECRET) && s) matched ??= s.id;
    }
    return matched;
  }
}
