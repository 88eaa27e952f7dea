import { ChildProcess } from 'node:child_process';
import { cpus } from 'node:os';
import { commandSucceeds, spawnProcess } from '../tools/process-kit/child-process';

/**
 * Where the bench's child processes run. With two or more cores and `taskset` available, the
 * bench pins itself (and so, by inheritance, redis-server, the simulator and the load
 * generator) to CPU 1 and the server under test (service, B0, B1) to CPU 0: the server gets
 * one core of its own, as a single Node process uses one core for JavaScript. Starting,
 * waiting for and stopping processes is tools/process-kit's.
 */
export interface Placement {
  pinned: boolean;
  serverCpu?: number;
  restCpu?: number;
  note: string;
}

export function pinPlacement(wanted = true): Placement {
  if (!wanted) return { pinned: false, note: 'not pinned (--no-pin): the OS places server, load generator, redis-server and simulator' };
  const hasTaskset = commandSucceeds('taskset', ['-V']);
  if (!hasTaskset || cpus().length < 2) {
    return { pinned: false, note: `not pinned (${hasTaskset ? `${cpus().length} CPU` : 'no taskset'}): numbers include load-generator interference` };
  }
  commandSucceeds('taskset', ['-a', '-p', '-c', '1', String(process.pid)]);
  return { pinned: true, serverCpu: 0, restCpu: 1, note: 'server under test on CPU 0; load generator, redis-server and simulator on CPU 1' };
}

/** Starts `node args` wherever the bench itself runs (CPU 1 when pinned); stdout piped, stderr passed through. */
export function spawnHelper(nodeArgs: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawnProcess(process.execPath, nodeArgs, { env, output: 'stdout' });
}
