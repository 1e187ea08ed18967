import { context, trace, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/**
 * An in-memory tracer provider for tests. Spans are exported synchronously on end.
 *
 * The provider is NOT global unless `global: true`: hand `tracer` (or `provider`, e.g. to
 * `instrumentation.setTracerProvider`) to the code under test. Global providers are fragile across
 * test files because `ProxyTracer`s cache their delegate; use `global` only for code that can only
 * reach `trace.getTracer()`, and `shutdown()` in an `after` hook.
 */
export interface TestTracing {
  readonly provider: BasicTracerProvider;
  readonly exporter: InMemorySpanExporter;
  readonly tracer: Tracer;
  /** All spans ended so far, in end order. */
  spans(): ReadableSpan[];
  /** The one ended span with this name; throws with the names seen when there is not exactly one. */
  span(name: string): ReadableSpan;
  /** Forgets the spans ended so far. */
  reset(): void;
  shutdown(): Promise<void>;
}

export interface TestTracingOptions {
  /** Extra processors, run before the exporting one (e.g. the ToolErrorSpanProcessor). */
  spanProcessors?: SpanProcessor[];
  /** All the processors, given the exporter, when spans reach it otherwise (an exporter wrapper). */
  pipeline?: (exporter: InMemorySpanExporter) => SpanProcessor[];
  /** Also register the provider as the global tracer provider. */
  global?: boolean;
}

/** Installs an AsyncLocalStorage context manager once per process, so `context.with` propagates. */
export function ensureContextManager(): void {
  const key = Symbol.for('otel-tool-errors.test.contextManager');
  const store = globalThis as Record<symbol, unknown>;
  if (store[key]) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  store[key] = true;
}

export function createTestTracing(options: TestTracingOptions = {}): TestTracing {
  ensureContextManager();
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: options.pipeline?.(exporter) ?? [
      ...(options.spanProcessors ?? []),
      new SimpleSpanProcessor(exporter),
    ],
  });
  if (options.global) {
    trace.disable();
    trace.setGlobalTracerProvider(provider);
  }
  return {
    provider,
    exporter,
    tracer: provider.getTracer('otel-tool-errors-test'),
    spans: () => exporter.getFinishedSpans(),
    span(name) {
      const found = exporter.getFinishedSpans().filter((s) => s.name === name);
      if (found.length !== 1) {
        const seen = exporter.getFinishedSpans().map((s) => s.name);
        throw new Error(
          `expected one span named ${JSON.stringify(name)}, found ${found.length}: ${JSON.stringify(seen)}`,
        );
      }
      return found[0]!;
    },
    reset: () => exporter.reset(),
    async shutdown() {
      if (options.global) trace.disable();
      await provider.shutdown();
    },
  };
}
