import { Partner } from './domain/ports/partners';

/**
 * A pasteable shell line that asks the built-in issuer for a token (client credentials, HTTP
 * Basic) and keeps it in $TOKEN, for the start-up banner's CAMARA calls
 * (`-H "Authorization: Bearer $TOKEN"`). Only printed for the demo registry, whose secrets are public.
 */
export function demoTokenCommand(baseUrl: string, partner: Partner): string {
  return `TOKEN=$(curl -s -u '${partner.apiKey}:${partner.secret}' -d grant_type=client_credentials "${baseUrl}/oauth2/token"`
    + ` | sed -E 's/.*"access_token":"([^"]+)".*/\\1/'); echo "$TOKEN"`;
}
