import { randomBytes } from 'node:crypto';
import { isOperation } from '../domain/operation';
import { Args, UsageError, stringOption } from './args';
import { credentialsFrom, signedQuery } from './credentials';
import { CliIo } from './io';

/** `call kyc|sim_swap MSISDN`: sends one signed request and prints the status and body. */
export async function callCommand(args: Args, io: CliIo): Promise<number> {
  const [, operation, msisdn] = args.positional;
  if (!isOperation(operation) || !msisdn) throw new UsageError('usage: verify-customer call kyc|sim_swap MSISDN [--url URL] [--key K --secret S] [--txn-id ID] [--max-age H] [--hmac]');
  const base = stringOption(args, 'url', io.env.VC_URL ?? 'http://127.0.0.1:8080')!.replace(/\/+$/, '');
  const body: Record<string, unknown> = { txn_id: stringOption(args, 'txn-id') ?? `cli-${randomBytes(8).toString('hex')}`, msisdn };
  const maxAge = stringOption(args, 'max-age');
  if (maxAge !== undefined) body.max_age = Number(maxAge);
  const url = `${base}/eai/verify_customer/query/${operation}?${signedQuery(credentialsFrom(args, io))}`;
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
