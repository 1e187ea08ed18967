// The 2.x names the shared test helpers import from @opentelemetry/sdk-trace-base, on the 3.x
// @opentelemetry/sdk-trace: 3.x renamed BasicTracerProvider to TracerProvider and takes the span
// processors' exporter in an options object, where 2.x also took it as the first argument.
const sdk = require('@opentelemetry/sdk-trace');

const isExporter = (value) =>
  value !== null && typeof value === 'object' && typeof value.export === 'function';
const acceptingPositionalExporter = (Processor) =>
  class extends Processor {
    constructor(exporterOrOptions, config) {
      super(isExporter(exporterOrOptions) ? { ...config, exporter: exporterOrOptions } : exporterOrOptions);
    }
  };

module.exports = {
  ...sdk,
  BasicTracerProvider: sdk.TracerProvider,
  BatchSpanProcessor: acceptingPositionalExporter(sdk.BatchSpanProcessor),
  SimpleSpanProcessor: acceptingPositionalExporter(sdk.SimpleSpanProcessor),
};
