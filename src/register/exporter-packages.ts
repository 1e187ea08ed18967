/**
 * The packages the register needs only at its first export or measurement: the OTLP exporters
 * with their encoder, and the metrics SDK. They are bundled apart, as dist/register-exporters.cjs
 * (tsup.config.ts), so that a start does not read them; the register's SDK file requires each from
 * there by name when it is first needed, and they take what they share with it from that file
 * (shared-packages.ts).
 */
/* eslint-disable @typescript-eslint/no-require-imports -- each is loaded when first asked for */
export const EXPORTER_PACKAGES: Readonly<Record<string, () => unknown>> = {
  '@opentelemetry/exporter-trace-otlp-proto': () => require('@opentelemetry/exporter-trace-otlp-proto'),
  '@opentelemetry/exporter-metrics-otlp-proto': () => require('@opentelemetry/exporter-metrics-otlp-proto'),
  '@opentelemetry/exporter-metrics-otlp-http': () => require('@opentelemetry/exporter-metrics-otlp-http'),
  '@opentelemetry/sdk-metrics': () => require('@opentelemetry/sdk-metrics'),
};
