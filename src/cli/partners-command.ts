import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { parsePartners, readPartnersJson } from '../partners/file-partner-registry';
import { LEGACY_OPERATIONS } from '../partners/operation';
import { UsageError, parseCommandArgs, positionals } from './args';
import { writeFileAtomic } from './atomic-file';
import { CliIo } from './io';

interface PartnersDocument {
  partners: Record<string, unknown>[];
}

/** The registry as it stands (validated by the service's own reader), or an empty one when there is no file yet. */
function currentDocument(file: string, env: NodeJS.ProcessEnv): PartnersDocument {
  if (!existsSync(file)) return { partners: [] };
  const json = readPartnersJson(file);
  parsePartners(json, file, env);
  return json as PartnersDocument;
}

/**
 * `partners add NAME`: a new api key and a random 32-byte secret, validated in memory by the
 * service's own reader and then written atomically (mode 0600) to the partners file. The
 * secret is printed once, to hand to the partner; it is never logged and never left in a
 * temp file.
 */
export function partnersCommand(argv: readonly string[], io: CliIo): number {
  const { values, positionals: given } = parseCommandArgs(argv, {
    file: { type: 'string' },
    operations: { type: 'string' },
    hmac: { type: 'boolean' },
  });
  const [sub, name] = positionals(given, ['add', 'NAME']);
  if (sub !== 'add') throw new UsageError('the only partners command is "add"');
  const file = values.file ?? io.env.PARTNERS_FILE;
  if (!file) throw new UsageError('give --file PATH (or set PARTNERS_FILE)');
  const operations = (values.operations ?? LEGACY_OPERATIONS.join(',')).split(',');
  const doc = currentDocument(file, io.env);
  if (doc.partners.some((p) => p.name === name)) throw new UsageError(`a partner named ${name} already exists in ${file}`);
  const apiKey = `${name.toLowerCase().replace(/[^a-z0-9]+/g, '-').slice(0, 40)}-${randomBytes(6).toString('hex')}`;
  const secret = randomBytes(32).toString('hex');
  const entry: Record<string, unknown> = { name, apiKey, secret, operations, enabled: true };
  if (values.hmac) entry.signature = 'hmac-sha256';
  const next: PartnersDocument = { ...doc, partners: [...doc.partners, entry] };
  try {
    parsePartners(next, file, io.env);
  } catch (err) {
    throw new UsageError(`refusing to write an invalid registry: ${(err as Error).message}`);
  }
  writeFileAtomic(file, `${JSON.stringify(next, null, 2)}\n`);
  io.out(`added partner ${name} to ${file} (send SIGHUP to the service to load it)`);
  io.out(`api_key=${apiKey}`);
  io.out(`secret=${secret}`);
  return 0;
}
