/**
 * The packages the register's SDK file bundles that the exporters' file (exporter-packages.ts)
 * also uses: it takes them from the SDK file instead of bundling second copies.
 */
/* eslint-disable @typescript-eslint/no-require-imports -- by literal name, so that the SDK file bundles them */
export const SHARED_PACKAGES: Readonly<Record<string, () => unknown>> = {
  '@opentelemetry/api': () => require('@opentelemetry/api'),
  '@opentelemetry/core': () => require('@opentelemetry/core'),
  '@opentelemetry/resources': () => require('@opentelemetry/resources'),
  '@opentelemetry/api-logs': () => require('@opentelemetry/api-logs'),
};
