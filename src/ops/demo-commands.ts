import { LEGACY_OPERATIONS } from '../partners/operation';
import { Partner } from '../partners/partners';

const SAMPLE_MSISDN: Record<string, string> = { kyc: '255712000001', sim_swap: '255712000006' };

/**
 * One pasteable, signed curl per operation. The signature is computed by the shell at paste
 * time, so the command keeps working after the 5-minute timestamp window has moved on.
 * Only printed for the demo registry, whose secrets are public anyway.
 */
export function demoCurlCommands(baseUrl: string, partner: Partner): string[] {
  return LEGACY_OPERATIONS.filter((op) => partner.operations.has(op)).map((op) => [
    `TS=$(date +%s); SIG=$(printf '%s' '${partner.apiKey}${partner.secret}'"$TS" | md5sum | cut -d' ' -f1);`,
    `curl -s -X POST "${baseUrl}/eai/verify_customer/query/${op}?api_key=${partner.apiKey}&timestamp=$TS&sig=$SIG"`,
    `-H 'Content-Type: application/json' -d "{\\"txn_id\\":\\"demo-$TS-$RANDOM\\",\\"msisdn\\":\\"${SAMPLE_MSISDN[op]}\\"}"; echo`,
  ].join(' '));
}
