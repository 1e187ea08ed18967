import { ToolInstrumentation } from '../../src';
import { createTestTracing, type TestTracing } from './tracing';

/** Two enabled `ToolInstrumentation` instances, each exporting to its own in-memory provider. */
export interface TwoInstances {
  readonly first: TestTracing;
  readonly second: TestTracing;
  /** Exports to `first`. */
  readonly a: ToolInstrumentation;
  /** Exports to `second`. */
  readonly b: ToolInstrumentation;
  /** Runs `run` with `instance` disabled, and enables it again. */
  whileDisabled<T>(instance: ToolInstrumentation, run: () => Promise<T>): Promise<T>;
}

type Filled<T> = { -readonly [K in keyof T]: T[K] };

/**
 * Registers the mocha hooks that make the two instances (filled in once `before` has run) and
 * disable them and shut their providers down after. Call it first in the spec's `describe`: the
 * instances are then enabled before the spec's own `before` loads the framework.
 */
export function useTwoInstances(): TwoInstances {
  const instances = {
    async whileDisabled<T>(instance: ToolInstrumentation, run: () => Promise<T>): Promise<T> {
      instance.disable();
      try {
        return await run();
      } finally {
        instance.enable();
      }
    },
  } as Filled<TwoInstances>;
  before(() => {
    instances.first = createTestTracing();
    instances.second = createTestTracing();
    instances.a = new ToolInstrumentation();
    instances.a.setTracerProvider(instances.first.provider);
    instances.b = new ToolInstrumentation();
    instances.b.setTracerProvider(instances.second.provider);
  });
  after(async () => {
    instances.a.disable();
    instances.b.disable();
    await instances.first.shutdown();
    await instances.second.shutdown();
  });
  return instances;
}
