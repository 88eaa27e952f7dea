import { DECLARED_APIS } from '../partners/camara-apis';
import { Partner } from '../partners/partners';

/**
 * A pasteable shell line that asks the built-in issuer for a token (client credentials, HTTP
 * Basic) and keeps it in $TOKEN, for the start-up banner's CAMARA calls. Only printed for the
 * demo registry, whose secrets are public.
 */
export function demoTokenCommand(baseUrl: string, partner: Partner): string {
  return `TOKEN=$(curl -s -u '${partner.apiKey}:${partner.secret}' -d grant_type=client_credentials "${baseUrl}/oauth2/token"`
    + ` | sed -E 's/.*"access_token":"([^"]+)".*/\\1/'); echo "$TOKEN"`;
}

/**
 * CAMARA calls that use $TOKEN, one per declared API the demo partner may use, each on the demo
 * number its declaration names (src/partners/camara-apis.ts).
 */
export function demoCamaraCommands(baseUrl: string, partner: Partner): string[] {
  const commands: string[] = [];
  for (const api of DECLARED_APIS) {
    if (api.demo === undefined || !partner.operations.has(api.registryOperation)) continue;
    commands.push(`curl -s -X POST "${baseUrl}${api.root}/${api.demo.operation}" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '${api.demo.body}'; echo`);
  }
  return commands;
}
