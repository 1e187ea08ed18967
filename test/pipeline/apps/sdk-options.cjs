// The NodeSDK options both set-up files use, given the packages in the set-up's own module format.
// The exporter is OTLP/HTTP JSON (the documented example uses protobuf) for the test's JSON receiver.
const RETRY_AFTER = ['retry-after', 'retry-after-ms'];

function sdkOptions({ sdkTraceBase, otlp, http, undici, toolErrors }) {
  return {
    serviceName: process.env.OTEL_SERVICE_NAME,
    spanProcessors: [
      new toolErrors.ToolErrorSpanProcessor(),
      new toolErrors.ToolMetricsSpanProcessor(),
      new sdkTraceBase.BatchSpanProcessor(new otlp.OTLPTraceExporter()),
    ],
    instrumentations: [
      new toolErrors.ToolInstrumentation(),
      // Retry-After on a 429 tells rate_limit from quota; the instrumentations record it when asked.
      new http.HttpInstrumentation({ headersToSpanAttributes: { client: { responseHeaders: RETRY_AFTER } } }),
      new undici.UndiciInstrumentation({ headersToSpanAttributes: { responseHeaders: RETRY_AFTER } }),
    ],
  };
}

module.exports = { sdkOptions };
