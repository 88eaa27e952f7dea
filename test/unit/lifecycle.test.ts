import { Lifecycle } from '../../src/kernel/lifecycle';

/** A module that notes when it is closed, and fails its close when told to. */
function fakeModule(name: string, closed: string[], failWith?: Error) {
  return {
    name,
    close: async () => {
      await Promise.resolve();
      closed.push(name);
      if (failWith) throw failWith;
    },
  };
}

describe('Lifecycle: the composition root\'s modules and their teardown', () => {
  it('when modules started in order are closed, then their hooks run last started first', async () => {
    const closed: string[] = [];
    const life = new Lifecycle(() => undefined);
    for (const name of ['partners', 'state', 'audit', 'http']) await life.start(name, () => fakeModule(name, closed));
    await life.close();
    expect(closed).toEqual(['http', 'audit', 'state', 'partners']);
  });

  it('when a factory returns what it provides, then start hands it back as is', async () => {
    const life = new Lifecycle(() => undefined);
    const provided = { service: 'verification' };
    await expect(life.start('verification', async () => provided)).resolves.toBe(provided);
    await expect(life.close()).resolves.toBeUndefined();
  });

  it('when a close hook fails, then the other hooks still run and close rejects naming every failed module', async () => {
    const closed: string[] = [];
    const reported: string[] = [];
    const life = new Lifecycle((module) => reported.push(module));
    await life.start('state', () => fakeModule('state', closed));
    await life.start('subscriptions', () => fakeModule('subscriptions', closed, new Error('queue close timed out')));
    await life.start('audit', () => fakeModule('audit', closed));
    await life.start('graphql', () => fakeModule('graphql', closed, new Error('apollo stop failed')));
    await life.start('http', () => fakeModule('http', closed));

    const outcome = life.close();
    await expect(outcome).rejects.toThrow(AggregateError);
    await expect(outcome).rejects.toThrow('close failed in graphql, subscriptions');
    await expect(outcome).rejects.toMatchObject({ errors: [new Error('apollo stop failed'), new Error('queue close timed out')] });
    expect(closed).toEqual(['http', 'graphql', 'audit', 'subscriptions', 'state']);
    expect(reported).toEqual(['graphql', 'subscriptions']);
  });

  it('when a close hook throws synchronously, then it is isolated like a rejection', async () => {
    const closed: string[] = [];
    const life = new Lifecycle(() => undefined);
    await life.start('state', () => fakeModule('state', closed));
    await life.start('partners', () => ({ close: () => { throw new Error('timer gone'); } }));
    await expect(life.close()).rejects.toThrow('close failed in partners');
    expect(closed).toEqual(['state']);
  });

  it('when a factory throws, then every module started before is closed in reverse and the factory\'s error is rethrown', async () => {
    const closed: string[] = [];
    const life = new Lifecycle(() => undefined);
    await life.start('upstreams', () => fakeModule('upstreams', closed));
    await life.start('state', () => fakeModule('state', closed));
    const cause = new Error('ADMIN_PORT 9090 on 127.0.0.1: listen EADDRINUSE');
    await expect(life.start('http', async () => { throw cause; })).rejects.toBe(cause);
    expect(closed).toEqual(['state', 'upstreams']);
  });

  it('when a factory throws and a release fails too, then the start still fails with the factory\'s error and the rest are released', async () => {
    const closed: string[] = [];
    const reported: string[] = [];
    const life = new Lifecycle((module) => reported.push(module));
    await life.start('upstreams', () => fakeModule('upstreams', closed));
    await life.start('state', () => fakeModule('state', closed, new Error('redis quit failed')));
    await life.start('audit', () => fakeModule('audit', closed));
    await expect(life.start('oauth', () => { throw new Error('bad OAUTH_SIGNING_KEY_FILE'); })).rejects.toThrow('bad OAUTH_SIGNING_KEY_FILE');
    expect(closed).toEqual(['audit', 'state', 'upstreams']);
    expect(reported).toEqual(['state']);
  });

  it('when close is called twice, then each hook runs once and both calls share the outcome', async () => {
    const closed: string[] = [];
    const life = new Lifecycle(() => undefined);
    await life.start('state', () => fakeModule('state', closed));
    const [a, b] = [life.close(), life.close()];
    expect(a).toBe(b);
    await a;
    await life.close();
    expect(closed).toEqual(['state']);
  });

  it('when a module is started after close began, then the start is refused', async () => {
    const life = new Lifecycle(() => undefined);
    await life.close();
    await expect(life.start('late', () => ({}))).rejects.toThrow('late not started: the service is closing');
  });
});
