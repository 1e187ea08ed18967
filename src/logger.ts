import { diag } from '@opentelemetry/api';

/**
 * The `diag` channel (user-notice.ts says which messages take it, and which are notices): every
 * message this package logs goes through OpenTelemetry's `diag`, under one component name, so
 * `OTEL_LOG_LEVEL` (or the app's `diag.setLogger`) decides what is shown. The logger is looked up
 * at each call, so one set later is used.
 */
export const logger = diag.createComponentLogger({ namespace: 'otel-tool-errors' });
