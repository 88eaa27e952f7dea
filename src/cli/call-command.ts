import { randomBytes } from 'node:crypto';
import { isLegacyOperation } from '../partners/operation';
import { UsageError, integerOption, parseCommandArgs, positionals } from './args';
import { CREDENTIAL_OPTIONS, credentialsFrom, signedQuery } from './credentials';
import { CliIo } from './io';

/** CONTRACT: SIM swap's `max_age` is a whole number of hours, 1–2400. */
const MAX_AGE_HOURS = { min: 1, max: 2400 };

/** `call kyc|sim_swap MSISDN`: sends one signed request and prints the status and body. */
export async function callCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals: given } = parseCommandArgs(argv, {
    ...CREDENTIAL_OPTIONS,
    url: { type: 'string' },
    'txn-id': { type: 'string' },
    'max-age': { type: 'string' },
  });
  const [operation, msisdn] = positionals(given, ['kyc|sim_swap', 'MSISDN']);
  if (!isLegacyOperation(operation)) throw new UsageError('the operation is kyc or sim_swap');
  const body: Record<string, unknown> = { txn_id: values['txn-id'] ?? `cli-${randomBytes(8).toString('hex')}`, msisdn };
  if (values['max-age'] !== undefined) {
    if (operation !== 'sim_swap') throw new UsageError('--max-age applies to sim_swap only');
    body.max_age = integerOption('max-age', values['max-age'], MAX_AGE_HOURS.min, MAX_AGE_HOURS.max);
  }
  const base = (values.url ?? io.env.VC_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '');
  if (!URL.canParse(base) || !/^https?:$/.test(new URL(base).protocol)) throw new UsageError('--url (or VC_URL) must be an http:// or https:// URL');
  const url = `${base}/eai/verify_customer/query/${operation}?${signedQuery(credentialsFrom(values, io))}`;
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  } catch (err) {
    io.err(`cannot reach ${base}: ${(err as Error).message}`);
    return 1;
  }
  io.out(`HTTP ${res.status}`);
  io.out(await res.text());
  return res.ok ? 0 : 1;
}
