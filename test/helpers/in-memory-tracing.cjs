// For child-process fixtures: an AsyncLocalStorage context manager and a tracer provider whose
// spans end up in memory, after `spanProcessors` (run first) have seen them.
const { context } = require('@opentelemetry/api');
const { AsyncLocalStorageContextManager } = require('@opentelemetry/context-async-hooks');
const {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} = require('@opentelemetry/sdk-trace-base');

function inMemoryTracing(spanProcessors = []) {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({
    spanProcessors: [...spanProcessors, new SimpleSpanProcessor(exporter)],
  });
  return { exporter, provider };
}

module.exports = { inMemoryTracing };
