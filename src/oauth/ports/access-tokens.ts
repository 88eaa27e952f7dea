import { Partner } from '../../partners/partners';

/** What a verified OAuth 2.0 access token grants (CONTRACT §7). */
export interface AccessGrant {
  /** The partner the token's `client_id` names; enabled. */
  partner: Partner;
  /**
   * The token's `scope` claim, split on spaces, limited to the scopes the partner's registry
   * `operations` allow now (a partner whose operations shrank loses them at once).
   */
  scopes: ReadonlySet<string>;
  /** Three-legged tokens: the E.164 number (with `+`) from a `sub` of the form `tel:+<E.164>`. */
  phoneNumber?: string;
  /**
   * Three-legged tokens: set when the `sub` names an end user (anything but the client itself),
   * by phone number or otherwise. A token without it is two-legged.
   */
  endUser?: true;
  /** The token's `purpose` claim (CAMARA Identity and Consent Management), when present. */
  purpose?: string;
}

/** Verifies bearer tokens from the built-in issuer or the trusted external one. */
export interface AccessTokenVerifier {
  /** The grant of a bearer token; rejects with UnauthenticatedError when it is missing, malformed, expired or badly signed. */
  verify(token: string): Promise<AccessGrant>;
}

/** A two-legged token the built-in issuer signed. */
export interface SignedAccessToken {
  token: string;
  expiresInS: number;
}

/** The built-in issuer's signing side (client credentials only). */
export interface AccessTokenSigner {
  /**
   * Signs a two-legged access token for a client with exactly these scopes; `secretId` (claim
   * `credential_id`) names the client secret it was obtained with, checked again at every verification.
   */
  sign(grant: { clientId: string; scopes: readonly string[]; secretId: string }): Promise<SignedAccessToken>;
}
