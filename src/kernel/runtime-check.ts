/** The oldest Node.js major the service supports (CONTRACT §6): Node 20 is past its end of life. */
export const MIN_NODE_MAJOR = 24;

/**
 * Stops a process started on an unsupported Node.js with a message that says how to get the
 * right one: `npm ci` installs Node 24 into node_modules/.bin, which npm scripts find first.
 */
export function requireSupportedNode(program: string, version = process.versions.node): void {
  const major = Number(version.split('.')[0]);
  if (major >= MIN_NODE_MAJOR) return;
  process.stderr.write(`${program}: Node.js ${version} is not supported; it needs Node ${MIN_NODE_MAJOR} or newer. ` +
    'Run it through npm (npm start, npm exec) after npm ci, which brings Node 24 into node_modules/.bin.\n');
  process.exit(1);
}
