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
 * CAMARA calls that use $TOKEN, one per API the demo partner may use, on demo numbers that show
 * an answer: a SIM swap, a tenure check, a KYC Match (011), a recent device swap (011),
 * unconditional forwarding (012) and a recycled number (015).
 */
export function demoCamaraCommands(baseUrl: string, partner: Partner): string[] {
  const call = (path: string, body: string) =>
    `curl -s -X POST "${baseUrl}${path}" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '${body}'; echo`;
  const commands: string[] = [];
  if (partner.operations.has('sim_swap')) commands.push(call('/sim-swap/v2/check', '{"phoneNumber":"+255712000006","maxAge":240}'));
  if (partner.operations.has('kyc')) commands.push(call('/kyc-tenure/v0.2/check-tenure', '{"phoneNumber":"+255712000001","tenureDate":"2024-01-01"}'));
  // 255712000011's record: José María Núñez, born 1987-04-12. Sent unaccented, with one wrong birth date: true, true, false.
  if (partner.operations.has('kyc_match')) {
    commands.push(call('/kyc-match/v0.4/match', '{"phoneNumber":"+255712000011","givenName":"Jose","familyName":"Nunez","birthdate":"1987-04-21"}'));
  }
  if (partner.operations.has('device_swap')) commands.push(call('/device-swap/v1/check', '{"phoneNumber":"+255712000011","maxAge":24}'));
  if (partner.operations.has('call_forwarding')) {
    commands.push(call('/call-forwarding-signal/v0.4/unconditional-call-forwardings', '{"phoneNumber":"+255712000012"}'));
  }
  if (partner.operations.has('number_recycling')) commands.push(call('/number-recycling/v0.2/check', '{"phoneNumber":"+255712000015","specifiedDate":"2024-01-01"}'));
  return commands;
}
