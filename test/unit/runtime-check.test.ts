import { MIN_NODE_MAJOR, requireSupportedNode } from '../../src/kernel/runtime-check';

describe('the runtime check (CONTRACT §6)', () => {
  it('when these tests run, then they run on Node 24 or newer', () => {
    expect(Number(process.versions.node.split('.')[0])).toBeGreaterThanOrEqual(MIN_NODE_MAJOR);
  });

  it('when a program starts on Node 20, then it stops with exit 1 and says how to get Node 24', () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const write = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      requireSupportedNode('verify-customer', '20.20.2');
      expect(exit).toHaveBeenCalledWith(1);
      expect(String(write.mock.calls[0]?.[0])).toMatch(/Node\.js 20\.20\.2 is not supported.*npm ci/);
    } finally {
      exit.mockRestore();
      write.mockRestore();
    }
  });

  it('when a program starts on Node 24 or newer, then it is allowed to start', () => {
    const exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    try {
      requireSupportedNode('verify-customer', '24.21.0');
      requireSupportedNode('verify-customer', '26.1.0');
      expect(exit).not.toHaveBeenCalled();
    } finally {
      exit.mockRestore();
    }
  });
});
