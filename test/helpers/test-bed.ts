import type { Tracer } from '@opentelemetry/api';
import {
  UndiciInstrumentation,
  type UndiciInstrumentationConfig,
} from '@opentelemetry/instrumentation-undici';
import { ToolInstrumentation } from '../../src';
import { startFlakyServer, type FlakyServer } from './flaky-server';
import { createTestTracing, type TestTracing, type TestTracingOptions } from './tracing';

/** What most specs run against: in-memory tracing and a real API that fails on purpose. */
export interface TestBed {
  readonly tracing: TestTracing;
  /** `tracing.tracer`. */
  readonly tracer: Tracer;
  /** A real HTTP server on 127.0.0.1 the spec's tools call. */
  readonly server: FlakyServer;
}

/** A test bed with the instrumentation enabled on it, for the adapter specs. */
export interface AdapterTestBed extends TestBed {
  /** Enabled, exporting to `tracing`. */
  readonly instrumentation: ToolInstrumentation;
}

type Filled<T> = { -readonly [K in keyof T]: T[K] };

export interface TestBedOptions extends TestTracingOptions {
  /** Also trace fetch with the real instrumentation-undici, so configured, on `tracing`. */
  undici?: UndiciInstrumentationConfig;
}

/**
 * Registers the mocha hooks that set up and tear down a `TestBed`, and returns it (filled in once
 * `before` has run). Spans are forgotten after each test.
 */
export function useTestBed(options: TestBedOptions = {}): TestBed {
  const bed = {} as Filled<TestBed>;
  let undici: UndiciInstrumentation | undefined;
  before(async () => {
    bed.tracing = createTestTracing(options);
    bed.tracer = bed.tracing.tracer;
    bed.server = await startFlakyServer();
    if (options.undici) {
      undici = new UndiciInstrumentation(options.undici);
      undici.setTracerProvider(bed.tracing.provider);
      undici.enable();
    }
  });
  afterEach(() => bed.tracing.reset());
  after(async () => {
    undici?.disable();
    await bed.server.close();
    await bed.tracing.shutdown();
  });
  return bed;
}

/**
 * `useTestBed` with an enabled `ToolInstrumentation` exporting to it. Call it first in the spec's
 * `describe`: its `before` then enables the instrumentation before the spec's own `before` loads
 * the framework, as an app that starts tracing first does.
 */
export function useAdapterTestBed(options: TestTracingOptions = {}): AdapterTestBed {
  const bed = useTestBed(options) as Filled<AdapterTestBed>;
  before(() => {
    bed.instrumentation = new ToolInstrumentation();
    bed.instrumentation.setTracerProvider(bed.tracing.provider);
  });
  after(() => bed.instrumentation.disable());
  return bed;
}
