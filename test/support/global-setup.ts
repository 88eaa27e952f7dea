import { commandSucceeds } from '../../tools/process-kit/child-process';

/** The e2e suites need a real redis-server binary: say how to get one rather than skip. */
export default function globalSetup(): void {
  if (!commandSucceeds('redis-server', ['--version'])) {
    throw new Error('redis-server is not installed: the end-to-end tests start their own Redis servers.\n' +
      'Install it with: apt-get update && apt-get install -y redis-server (or your platform\'s package), then run the tests again.');
  }
}
