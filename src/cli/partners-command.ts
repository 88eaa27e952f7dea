import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { readPartnersFile } from '../adapters/partners/file-partner-registry';
import { OPERATIONS } from '../domain/operation';
import { Args, UsageError, stringOption } from './args';
import { CliIo } from './io';

/**
 * `partners add NAME`: a new api key and a random 32-byte secret, written atomically to the
 * partners file and validated by the same reader the service uses. The secret is printed
 * once, to hand to the partner; it is never logged.
 */
export function partnersCommand(args: Args, io: CliIo): number {
  const [, sub, name] = args.positional;
  if (sub !== 'add' || !name) throw new UsageError('usage: verify-customer partners add NAME [--file PATH] [--operations kyc,sim_swap] [--hmac]');
  const file = stringOption(args, 'file', io.env.PARTNERS_FILE);
  if (!file) throw new UsageError('give --file PATH (or set PARTNERS_FILE)');
  const operations = (stringOption(args, 'operations') ?? OPERATIONS.join(',')).split(',');
  const doc = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) as { partners: { name: string }[] } : { partners: [] };
  if (doc.partners.some((p) => p.name === name)) throw new UsageError(`a partner named ${name} already exists in ${file}`);
  const apiKey = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 40)}-${randomBytes(6).toString('hex')}`;
  const secret = randomBytes(32).toString('hex');
  const entry: Record<string, unknown> = { name, apiKey, secret, operations, enabled: true };
  if (args.options.has('hmac')) entry.signature = 'hmac-sha256';
  doc.partners.push(entry as { name: string });
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(doc, null, 2)}\n`, { mode: 0o600 });
  try {
    readPartnersFile(tmp, io.env);
  } catch (err) {
    throw new UsageError(`refusing to write an invalid registry: ${(err as Error).message.replace(tmp, file)}`);
  }
  renameSync(tmp, file);
  io.out(`added partner ${name} to ${file} (send SIGHUP to the service to load it)`);
  io.out(`api_key=${apiKey}`);
  io.out(`secret=${secret}`);
  return 0;
}
