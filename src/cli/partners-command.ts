import { userInfo } from 'node:os';
import { DomainError } from '../errors/domain-errors';
import { systemClock } from '../kernel/clock';
import { FilePartnerStore } from '../partners/adapters/file-partner-store';
import { openPostgresPartnerStore } from '../partners/adapters/create-postgres-partners';
import { readPartnersJson, parsePartners } from '../partners/file-partner-registry';
import { LEGACY_OPERATIONS, OPERATIONS } from '../partners/operation';
import { Actor, NewPartner } from '../partners/ports/partner-admin';
import { recordOf } from '../partners/registry/partner-record';
import { UsageError, parseCommandArgs, positionals } from './args';
import { CliIo } from './io';

export const PARTNERS_USAGE = `partners add NAME [--file PATH] [--operations ${OPERATIONS.join(',')}] [--hmac]
  partners import FILE [--file PATH]     add FILE's partners whose name and api key are free
Partners: --file, else DATABASE_URL (PostgreSQL; PARTNER_SECRETS_KEY_FILE), else PARTNERS_FILE.`;

/** Who the change log names: the CLI and the account that ran it. */
function cliActor(io: CliIo): Actor {
  let user = io.env.USER ?? '';
  try {
    user ||= userInfo().username;
  } catch {
    user ||= 'unknown';
  }
  return { type: 'cli', name: `verify-customer partners (${user})` };
}

interface Target {
  admin: Pick<FilePartnerStore, 'create' | 'importRecords'>;
  where: string;
  close(): Promise<void>;
}

async function targetOf(file: string | undefined, io: CliIo): Promise<Target> {
  const path = file ?? (io.env.DATABASE_URL ? undefined : io.env.PARTNERS_FILE);
  if (path !== undefined) {
    const admin = new FilePartnerStore({ file: path, readPath: path, clock: systemClock, reload: () => undefined, env: io.env });
    return { admin, where: path, close: () => Promise.resolve() };
  }
  const url = io.env.DATABASE_URL;
  if (!url) throw new UsageError('give --file PATH (or set DATABASE_URL or PARTNERS_FILE)');
  if (!/^postgres(ql)?:\/\//.test(url)) throw new UsageError('DATABASE_URL must be a postgres:// or postgresql:// URL');
  const opened = await openPostgresPartnerStore(url, io.env.PARTNER_SECRETS_KEY_FILE, systemClock);
  return { admin: opened.admin, where: 'the database registry', close: () => opened.close() };
}

/**
 * `partners add NAME`: a new api key and a random 32-byte secret, through the same management
 * plane as the admin API (validation, change log naming the CLI); the secret is printed once and
 * never logged nor left in a temp file. `partners import FILE`: a registry file's partners, the
 * ones whose name and api key are free. Either works on a file (written atomically, mode 0600)
 * or on the database registry, whose running instances load the change within 2 s.
 */
export async function partnersCommand(argv: readonly string[], io: CliIo): Promise<number> {
  const { values, positionals: given } = parseCommandArgs(argv, {
    file: { type: 'string' },
    operations: { type: 'string' },
    hmac: { type: 'boolean' },
  });
  const [sub, arg] = positionals(given, ['add|import', given[0] === 'import' ? 'FILE' : 'NAME']);
  if (sub !== 'add' && sub !== 'import') throw new UsageError('partners commands: "add", "import"');
  if (sub === 'import' && (values.operations !== undefined || values.hmac)) throw new UsageError('partners import takes only --file');
  // Read and validate an import's source before anything is opened or written.
  const incoming = sub === 'import' ? parsePartners(readPartnersJson(arg), arg, io.env).map(recordOf) : [];
  const target = await targetOf(values.file, io);
  try {
    if (sub === 'import') {
      const { imported, skipped } = await target.admin.importRecords(incoming, cliActor(io));
      io.out(`imported ${imported.length} partner${imported.length === 1 ? '' : 's'} into ${target.where}${skipped.length ? `; skipped (name or api key taken): ${skipped.join(', ')}` : ''}`);
      return 0;
    }
    const input: NewPartner = { name: arg, operations: (values.operations ?? LEGACY_OPERATIONS.join(',')).split(',') as NewPartner['operations'] };
    if (values.hmac) input.signature = 'hmac-sha256';
    const { partner, secret } = await target.admin.create(input, cliActor(io));
    io.out(target.where === 'the database registry'
      ? `added partner ${partner.name} to the database registry (every instance loads it within 2 s)`
      : `added partner ${partner.name} to ${target.where} (send SIGHUP to the service to load it)`);
    io.out(`api_key=${partner.apiKey}`);
    io.out(`secret=${secret}`);
    return 0;
  } catch (err) {
    if (err instanceof DomainError && err.kind !== 'REGISTRY_UNAVAILABLE') throw new UsageError(err.reason);
    throw err;
  } finally {
    await target.close();
  }
}
