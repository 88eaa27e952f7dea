'use strict';
/**
 * Strict command lines for the CI helper scripts (node:util parseArgs): an unknown option, a
 * missing value or a wrong count of positionals prints the reason and the usage and exits 2
 * before the script sends anything.
 */
const { parseArgs } = require('node:util');

function usageExit(script, usage, reason) {
  process.stderr.write(`${script}: ${reason}\nusage: ${usage}\n`);
  process.exit(2);
}

/** parseArgs({ options, allowPositionals }) with strict: true; `check(parsed)` returns a reason to refuse, or nothing. */
function parseOrExit(script, usage, config, check) {
  let parsed;
  try {
    parsed = parseArgs({ args: process.argv.slice(2), strict: true, allowPositionals: false, ...config });
  } catch (err) {
    if (!String(err.code).startsWith('ERR_PARSE_ARGS_')) throw err;
    usageExit(script, usage, err.message);
  }
  const reason = check?.(parsed);
  if (reason) usageExit(script, usage, reason);
  return parsed;
}

/** True for an absolute http(s) URL. */
function isHttpUrl(s) {
  return URL.canParse(s) && /^https?:$/.test(new URL(s).protocol);
}

module.exports = { parseOrExit, isHttpUrl };
