import { warnUser } from './stderr';
import type { OtlpProtocol, Signal } from './settings';

/** The shape both span and metric exporters share: `export(items, done)` reporting a result code. */
interface Exporter<T> {
  export(items: T, done: (result: { code: number; error?: Error }) => void): void;
}

const SUCCESS = 0;
let told = false;
/** "traces to <url>" for each OTLP exporter started, for the message when the exit stops waiting. */
const destinations: string[] = [];

/** Tells the user once per process that telemetry was lost, and where it was going. */
export function reportLostTelemetry(what: string, reason: string): void {
  if (told) return;
  told = true;
  warnUser(
    `telemetry lost: could not export ${what} (${reason}). ` +
      'Is the collector running? Set OTEL_EXPORTER_OTLP_ENDPOINT to where it listens.',
  );
}

/** Reports that the exit stopped waiting for the OTLP exporters. */
export function reportUndelivered(waitedMillis: number): void {
  reportLostTelemetry(
    destinations.join(' and ') || 'telemetry',
    `not delivered within ${waitedMillis} ms of the exit; OTEL_EXPORTER_OTLP_TIMEOUT sets how long to wait`,
  );
}

/** Where an OTLP exporter of `signal` sends, by the rules its OTEL_EXPORTER_OTLP_* variables follow. */
export function otlpDestination(
  signal: Signal,
  protocol: OtlpProtocol,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const own = env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`]?.trim();
  if (own) return own;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (protocol === 'grpc') return base || 'http://localhost:4317';
  return `${(base || 'http://localhost:4318').replace(/\/+$/, '')}/v1/${signal}`;
}

/** Makes `exporter` report its first failed export through `reportLostTelemetry`. */
export function reportingFailures<E extends Exporter<any>>(
  exporter: E,
  signal: Signal,
  destination: string,
): E {
  destinations.push(`${signal} to ${destination}`);
  const exportItems = exporter.export.bind(exporter);
  exporter.export = (items, done) =>
    exportItems(items, (result) => {
      if (result.code !== SUCCESS) {
        reportLostTelemetry(`${signal} to ${destination}`, result.error?.message ?? 'export failed');
      }
      done(result);
    });
  return exporter;
}
