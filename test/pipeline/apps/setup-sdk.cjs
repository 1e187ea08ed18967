// The programmatic NodeSDK set-up of docs/programmatic-setup.md, for a CommonJS app: `node --require ./setup-sdk.cjs app.cjs`.
const { NodeSDK } = require('@opentelemetry/sdk-node');
const { sdkOptions } = require('./sdk-options.cjs');

const sdk = new NodeSDK(
  sdkOptions({
    sdkTraceBase: require('@opentelemetry/sdk-trace-base'),
    otlp: require('@opentelemetry/exporter-trace-otlp-http'),
    http: require('@opentelemetry/instrumentation-http'),
    undici: require('@opentelemetry/instrumentation-undici'),
    toolErrors: require('otel-tool-errors'),
  }),
);
sdk.start();
process.once('beforeExit', () => sdk.shutdown());
