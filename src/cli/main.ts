#!/usr/bin/env node
import { UsageError, parseCommandArgs, positionals } from './args';
import { AUDIT_USAGE, auditCommand } from './audit-command';
import { callCommand } from './call-command';
import { CREDENTIAL_OPTIONS, credentialsFrom, signedQuery } from './credentials';
import { CliIo, processIo } from './io';
import { PARTNERS_USAGE, partnersCommand } from './partners-command';
import { webhooksCommand } from './webhooks-command';
import { requireSupportedNode } from '../kernel/runtime-check';
import { USAGE_USAGE, usageCommand } from './usage-command';

const USAGE = `usage: verify-customer <command>
  sign [--key K --secret S] [--timestamp T] [--hmac]     print a signed query string
  call kyc|sim_swap MSISDN [--url URL] [--key K --secret S] [--txn-id ID] [--max-age H] [--hmac]
  ${PARTNERS_USAGE}
  webhooks dead-letters [--json] | webhooks replay <jobId>... | --all
  ${AUDIT_USAGE}
  ${USAGE_USAGE}
Options take a value as "--name value" or "--name=value"; --hmac takes none; --max-age (sim_swap) is 1-2400 hours.
Audit and usage read AUDIT_DATABASE_URL, else AUDIT_DIR (default ./var).
Credentials default to VC_API_KEY / VC_SECRET, then the demo partner; --url to VC_URL, then http://127.0.0.1:8080.`;

function signCommand(argv: readonly string[], io: CliIo): number {
  const { values, positionals: given } = parseCommandArgs(argv, { ...CREDENTIAL_OPTIONS, timestamp: { type: 'string' } });
  positionals(given, []);
  if (values.timestamp !== undefined && !/^\d{1,12}$/.test(values.timestamp)) throw new UsageError('--timestamp must be Unix seconds (digits)');
  io.out(signedQuery(credentialsFrom(values, io), values.timestamp));
  return 0;
}

/**
 * Runs one command; the exit code is returned, not taken, so tests can run it in-process.
 * A usage error (unknown command or option, missing or malformed value) prints the reason
 * and the usage and returns 2 before anything is signed, sent or written.
 */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'sign':
        return signCommand(rest, io);
      case 'call':
        return await callCommand(rest, io);
      case 'partners':
        return await partnersCommand(rest, io);
      case 'audit':
        return await auditCommand(rest, io);
      case 'usage':
        return await usageCommand(rest, io);
      case 'webhooks':
        return await webhooksCommand(rest, io);
      case 'help':
      case '--help':
      case '-h':
        io.out(USAGE);
        return 0;
      case undefined:
        throw new UsageError('give a command');
      default:
        throw new UsageError(`unknown command "${command.slice(0, 40)}"`);
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`verify-customer: ${err.message}`);
      io.err(USAGE);
      return 2;
    }
    throw err;
  }
}

if (require.main === module) {
  requireSupportedNode('verify-customer');
  runCli(process.argv.slice(2)).then((code) => process.exit(code), (err) => {
    process.stderr.write(`verify-customer: ${(err as Error).message}\n`);
    process.exit(1);
  });
}
