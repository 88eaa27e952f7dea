/**
 * Jest waits for the event loop to empty before it exits. Something a test leaves running (a
 * client reconnecting to a Redis that is gone, a server still listening) would hold the run
 * open until CI's own time limit, saying only "Jest did not exit". This reporter says what
 * holds it: EXIT_WATCHDOG_MS after the run it prints the live handles (sockets with their
 * addresses, child processes with their commands, servers, timers by count) and ends the
 * process with Jest's own exit code, which a failed run has already set (docs/decisions.md).
 * With TEST_TRACE_HANDLES=1 it also prints where each one was created (async_hooks; slow,
 * for hunting a leak, never on by default).
 */
const asyncHooks = require('node:async_hooks');

const WATCHDOG_MS = Number(process.env.EXIT_WATCHDOG_MS || 20_000);
const TRACED = new Set(['TCPWRAP', 'TCPCONNECTWRAP', 'PROCESSWRAP', 'Timeout', 'TCPSERVERWRAP', 'PIPEWRAP']);

function describeHandle(h) {
  const name = h?.constructor?.name ?? typeof h;
  if (name === 'Socket') {
    if (h.remotePort) return `socket ${h.localAddress}:${h.localPort} -> ${h.remoteAddress}:${h.remotePort}`;
    return `socket ${h.connecting ? 'connecting' : 'unconnected'}${h._handle?.fd >= 0 ? ` fd ${h._handle.fd}` : ''}`;
  }
  if (name === 'Server') {
    const a = typeof h.address === 'function' ? h.address() : undefined;
    return `server listening on ${a && typeof a === 'object' ? `${a.address}:${a.port}` : a}`;
  }
  if (name === 'ChildProcess') return `child process ${h.pid}: ${(h.spawnargs ?? []).join(' ').slice(0, 200)}`;
  return name;
}

class ExitWatchdogReporter {
  constructor() {
    this.created = new Map();
    if (process.env.TEST_TRACE_HANDLES === '1') {
      asyncHooks.createHook({
        init: (id, type) => {
          if (TRACED.has(type)) this.created.set(id, `${type}${new Error().stack.split('\n').slice(2, 14).join('\n')}`);
        },
        destroy: (id) => { this.created.delete(id); },
      }).enable();
    }
  }

  onRunComplete() {
    const timer = setTimeout(() => {
      // Our own stdout and stderr are always there; the rest is what a test left.
      const lines = process._getActiveHandles().filter((h) => !(h?._isStdio || h === process.stdout || h === process.stderr)).map(describeHandle);
      const kinds = process.getActiveResourcesInfo().reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map());
      process.stderr.write(`\nexit watchdog: the run ended ${WATCHDOG_MS} ms ago and this process is still held open.\n` +
        `live resources: ${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}\n` +
        lines.map((l) => `  ${l}\n`).join('') +
        (this.created.size ? `created at:\n${[...this.created.values()].join('\n---\n')}\n` : ''));
      process.exit();
    }, WATCHDOG_MS);
    timer.unref();
  }
}
module.exports = ExitWatchdogReporter;
