#!/usr/bin/env node
import { Args, UsageError, parseArgs, stringOption } from './args';
import { callCommand } from './call-command';
import { credentialsFrom, signedQuery } from './credentials';
import { CliIo, processIo } from './io';
import { partnersCommand } from './partners-command';
import { webhooksCommand } from './webhooks-command';
import { requireSupportedNode } from '../runtime-check';

const USAGE = `verify-customer <command>
  sign [--key K --secret S] [--timestamp T] [--hmac]     print a signed query string
  call kyc|sim_swap MSISDN [--url URL] [--key K --secret S] [--txn-id ID] [--max-age H] [--hmac]
  partners add NAME [--file PATH] [--operations kyc,sim_swap] [--hmac]
  webhooks dead-letters [--json] | webhooks replay <jobId>... | --all
Credentials default to VC_API_KEY / VC_SECRET, then the demo partner; --url to VC_URL, then http://127.0.0.1:8080.`;

/** Runs one command; the exit code is returned, not taken, so tests can run it in-process. */
export async function runCli(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const args: Args = parseArgs(argv);
  try {
    switch (args.positional[0]) {
      case 'sign':
        io.out(signedQuery(credentialsFrom(args, io), stringOption(args, 'timestamp')));
        return 0;
      case 'call':
        return await callCommand(args, io);
      case 'partners':
        return partnersCommand(args, io);
      case 'webhooks':
        return await webhooksCommand(argv.slice(1), io);
      default:
        io.err(USAGE);
        return 2;
    }
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(err.message);
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
