import { timingSafeEqual } from 'node:crypto';
import { AuthFailureThrottle } from './auth-failure-throttle';
import { RateLimitedError, UnauthenticatedError } from '../errors/domain-errors';
import { Clock } from '../kernel/clock';
import { AuthFailureMetrics, AuthFailureReason, AuthInterface } from './ports/auth-failure-metrics';
import { Partner, PartnerRegistry, validSecrets } from './partners';
import { signatureFor } from './signature';
import { SignatureWindow } from './signature-window';

export interface Credentials {
  apiKey?: string;
  timestamp?: string;
  sig?: string;
}

export interface AuthenticatorDeps {
  registry: PartnerRegistry;
  clock: Clock;
  maxSkewS: number;
  metrics: AuthFailureMetrics;
  /** Refuses (key, address) pairs and addresses with too many failed signatures; absent = no throttling. */
  throttle?: AuthFailureThrottle;
}

const TIMESTAMP = /^\d{1,16}$/;
const HEX = /^[0-9a-fA-F]+$/;
const MS_THRESHOLD = 1e12;
const GENERIC = 'authentication failed';
const THROTTLED = 'too many failed authentication attempts';

function equalHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'latin1');
  const y = Buffer.from(b, 'latin1');
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * CONTRACT §1.5. Reasons never tell whether an api key exists: unknown, disabled and
 * wrong-signature all read "authentication failed"; the timestamp is judged before the key.
 */
export class Authenticator {
  /**
   * One window per valid MD5 secret, keyed by its prefix (api key + secret: all a window depends
   * on), so a registry reload that keeps a secret keeps its window; tick() drops the others.
   */
  private windows = new Map<string, SignatureWindow>();

  constructor(private readonly deps: AuthenticatorDeps) {}

  /**
   * The partner these credentials prove. `clientAddress` is where they came from, as the unit the
   * throttle counts it as (the transport's clientAddressKey); absent counts as one unknown address.
   * `iface` labels the failure metrics only.
   */
  authenticate(c: Credentials, clientAddress?: string, iface: AuthInterface = 'rest'): Partner {
    // Before any hashing: a throttled guesser costs two map lookups.
    const retryAfterS = this.deps.throttle?.retryAfterS(c.apiKey, clientAddress);
    if (retryAfterS !== undefined) {
      this.deps.metrics.authFailure('throttled', iface);
      throw new RateLimitedError(THROTTLED, retryAfterS);
    }
    const nowMs = this.deps.clock.nowMs();
    if (!c.apiKey) this.fail('missing_key', 'api_key is required', iface);
    if (!c.sig) this.fail('bad_signature', 'sig is required', iface);
    if (c.sig.length > 128 || !HEX.test(c.sig)) this.fail('bad_signature', GENERIC, iface);
    const sig = c.sig.toLowerCase();
    if (c.timestamp !== undefined) this.checkTimestamp(c.timestamp, nowMs, iface);

    // From here on a failure is a failed signature: unknown and disabled keys count exactly like
    // wrong signatures, so the throttle never tells whether a key exists.
    const partner = this.deps.registry.find(c.apiKey);
    if (!partner) this.failSignature('unknown_key', c.apiKey, clientAddress, iface);
    if (!partner.enabled) this.failSignature('disabled', c.apiKey, clientAddress, iface);
    if (!this.signatureMatches(partner, sig, c.timestamp, nowMs)) this.failSignature('bad_signature', c.apiKey, clientAddress, iface);
    return partner;
  }

  /**
   * Slides every valid MD5 secret's window to now, so no request pays for a rebuild, and forgets
   * the windows of secrets no longer valid (revoked, expired, rotated away, partner disabled).
   */
  tick(): void {
    const nowMs = this.deps.clock.nowMs();
    const nowS = Math.floor(nowMs / 1000);
    const kept = new Map<string, SignatureWindow>();
    for (const p of this.deps.registry.all()) {
      if (!p.enabled || p.signature !== 'md5') continue;
      for (const s of validSecrets(p, nowMs)) {
        const prefix = p.apiKey + s.secret;
        const w = this.windows.get(prefix) ?? new SignatureWindow(prefix, this.deps.maxSkewS);
        w.advanceTo(nowS);
        kept.set(prefix, w);
      }
    }
    this.windows = kept;
  }

  /** At most two secrets are valid at once, so a request costs at most two hashes or window lookups. */
  private signatureMatches(p: Partner, sig: string, timestamp: string | undefined, nowMs: number): boolean {
    let matched = false;
    // Every valid secret is tried, a match or not, so the time taken does not say which one matched.
    for (const s of validSecrets(p, nowMs)) {
      if (this.secretMatches(p, s.secret, sig, timestamp, nowMs)) matched = true;
    }
    return matched;
  }

  private secretMatches(p: Partner, secret: string, sig: string, timestamp: string | undefined, nowMs: number): boolean {
    switch (p.signature) {
      case 'md5':
        if (timestamp === undefined) {
          return this.windowFor(p.apiKey + secret).timestampOf(sig, Math.floor(nowMs / 1000)) !== undefined;
        }
        return equalHex(signatureFor('md5', p.apiKey, secret, timestamp), sig);
      case 'hmac-sha256':
        if (timestamp === undefined) return false; // hmac-sha256 has no omitted-timestamp form
        return equalHex(signatureFor('hmac-sha256', p.apiKey, secret, timestamp), sig);
      default: {
        const never: never = p.signature;
        throw new Error(`unknown signature scheme ${String(never)}`);
      }
    }
  }

  /** A secret new since the last tick gets its window here, once (the ticker keeps it afterwards). */
  private windowFor(prefix: string): SignatureWindow {
    let w = this.windows.get(prefix);
    if (!w) {
      w = new SignatureWindow(prefix, this.deps.maxSkewS);
      this.windows.set(prefix, w);
    }
    return w;
  }

  private checkTimestamp(raw: string, nowMs: number, iface: AuthInterface): void {
    if (!TIMESTAMP.test(raw)) this.fail('bad_timestamp', 'timestamp must be UNIX seconds or milliseconds', iface);
    const n = Number(raw);
    const tsMs = n >= MS_THRESHOLD ? n : n * 1000;
    if (Math.abs(nowMs - tsMs) > this.deps.maxSkewS * 1000) {
      this.fail('stale_timestamp', 'timestamp outside the allowed window', iface);
    }
  }

  private failSignature(reason: AuthFailureReason, apiKey: string, clientAddress: string | undefined, iface: AuthInterface): never {
    this.deps.throttle?.recordFailure(apiKey, clientAddress);
    this.fail(reason, GENERIC, iface);
  }

  private fail(reason: AuthFailureReason, message: string, iface: AuthInterface): never {
    this.deps.metrics.authFailure(reason, iface);
    throw new UnauthenticatedError(message);
  }
}
