/** What a feature module's factory may hand back besides what it provides: how to stop it. */
export interface Stoppable {
  close?(): void | Promise<void>;
}

interface CloseHook {
  name: string;
  close(): void | Promise<void>;
}

/**
 * The modules the composition root started, in order, and their close hooks.
 *
 * Teardown runs the hooks last-started first, since a module is started after what it uses
 * and must stop before it. Each hook is awaited on its own: one that fails is reported and the
 * rest still run, so a failed queue close never leaves the audit trail unwritten or Redis
 * connections open. A factory that throws closes every module started before it, then the
 * start fails with the factory's own error.
 */
export class Lifecycle {
  private readonly hooks: CloseHook[] = [];
  private closing: Promise<void> | undefined;

  /** onCloseError: told of each failed hook (the log); the failures are also thrown together by close(). */
  constructor(private readonly onCloseError: (module: string, err: unknown) => void) {}

  /** Runs one module's factory and remembers its close hook. */
  async start<M extends object>(name: string, factory: () => M | Promise<M>): Promise<M> {
    if (this.closing) throw new Error(`${name} not started: the service is closing`);
    let module: M;
    try {
      module = await factory();
    } catch (err) {
      // The hooks' own failures were reported through onCloseError; the start's cause is the factory's.
      await this.close().catch(() => undefined);
      throw err;
    }
    const stoppable: Stoppable = module;
    if (typeof stoppable.close === 'function') this.hooks.push({ name, close: () => stoppable.close?.() });
    return module;
  }

  /** Every close hook, last started first, each isolated; one AggregateError when any failed. Runs once. */
  close(): Promise<void> {
    this.closing ??= this.runHooks();
    return this.closing;
  }

  private async runHooks(): Promise<void> {
    const failures: { name: string; err: unknown }[] = [];
    for (const hook of [...this.hooks].reverse()) {
      try {
        await hook.close();
      } catch (err) {
        failures.push({ name: hook.name, err });
        this.onCloseError(hook.name, err);
      }
    }
    if (failures.length > 0) {
      throw new AggregateError(failures.map((f) => f.err), `close failed in ${failures.map((f) => f.name).join(', ')}`);
    }
  }
}
