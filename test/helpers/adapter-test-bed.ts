import { ToolInstrumentation } from '../../src';
import { startFlakyServer, type FlakyServer } from './flaky-server';
import { createTestTracing, type TestTracing, type TestTracingOptions } from './tracing';

/** What every adapter spec runs against: in-memory tracing, the instrumentation, a failing API. */
export interface AdapterTestBed {
  readonly tracing: TestTracing;
  /** Enabled, exporting to `tracing`. */
  readonly instrumentation: ToolInstrumentation;
  /** A real HTTP server on 127.0.0.1 the spec's tools call. */
  readonly server: FlakyServer;
}

/**
 * Registers the mocha hooks that set up and tear down an `AdapterTestBed`, and returns it (filled
 * in once `before` has run). Call it first in the spec's `describe`: its `before` then enables the
 * instrumentation before the spec's own `before` loads the framework, as an app that starts tracing
 * first does. Spans are forgotten after each test.
 */
export function useAdapterTestBed(options: TestTracingOptions = {}): AdapterTestBed {
  const bed = {} as { -readonly [K in keyof AdapterTestBed]: AdapterTestBed[K] };
  before(async () => {
    bed.tracing = createTestTracing(options);
    bed.instrumentation = new ToolInstrumentation();
    bed.instrumentation.setTracerProvider(bed.tracing.provider);
    bed.server = await startFlakyServer();
  });
  afterEach(() => bed.tracing.reset());
  after(async () => {
    bed.instrumentation.disable();
    await bed.server.close();
    await bed.tracing.shutdown();
  });
  return bed;
}
