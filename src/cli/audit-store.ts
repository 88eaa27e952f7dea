import { ParseArgsConfig } from 'node:util';
import { AuditReader } from '../audit/adapters/audit-reader';
import { FileAuditReader } from '../audit/adapters/file-audit-reader';
import { PostgresAuditReader } from '../audit/adapters/postgres-audit-reader';
import { parseCommandArgs, positionals } from './args';
import { CliIo } from './io';

/** The store the service writes to: PostgreSQL when AUDIT_DATABASE_URL is set, else the files under AUDIT_DIR (default ./var). */
export async function openAuditReader(io: CliIo): Promise<AuditReader> {
  const url = io.env.AUDIT_DATABASE_URL;
  if (url) return PostgresAuditReader.connect(url);
  return new FileAuditReader(io.env.AUDIT_DIR || './var');
}

/** node:util parseArgs, strict; its errors become usage errors (exit 2) with its message. */
export function strictArgs<const O extends NonNullable<ParseArgsConfig['options']>>(argv: readonly string[], options: O) {
  const { values, positionals: given } = parseCommandArgs(argv, options);
  positionals(given, []);
  return values;
}
