import type { ToolInstrumentationConfig } from '../instrumentation/types';
import {
  ENV_GENAI_CAPTURE_MESSAGE_CONTENT,
  GENAI_CAPTURE_VALUES_TEXT,
  genAiCaptureFrom,
} from '../instrumentation/capture-env';
import { sdkDisabled } from './sdk-disabled';

export type ExporterName = 'otlp' | 'console';
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';
export type Signal = 'traces' | 'metrics';
export type PropagatorName = 'tracecontext' | 'baggage';

/** A signal's exporters and, for `otlp`, its protocol and per-export timeout. */
export interface SignalSettings {
  readonly exporters: readonly ExporterName[];
  readonly protocol: OtlpProtocol;
  /** Bounds one export including its retries, as in the OTLP exporters (10 s unless set). */
  readonly timeoutMillis: number;
}

/** What the zero-code entry points read from the environment. */
export interface RegisterSettings {
  /** `OTEL_SDK_DISABLED=true`: start nothing. */
  readonly disabled: boolean;
  /** `OTEL_TRACES_EXPORTER` (default `otlp`; `none`: spans are enriched and counted, not exported). */
  readonly traces: SignalSettings;
  /** `OTEL_METRICS_EXPORTER` (default `otlp`). */
  readonly metrics: SignalSettings;
  /** `OTEL_METRIC_EXPORT_INTERVAL`, default 60 s. */
  readonly metricExportIntervalMillis: number;
  /** `OTEL_TOOL_ERRORS_EXIT_TIMEOUT`: how long the exit waits for the last exports. */
  readonly exitTimeoutMillis: number;
  /**
   * `OTEL_NODE_RESOURCE_DETECTORS`, as auto-instrumentations-node reads it, with `all` and `none`
   * expanded; unset, `host`, `process` and `env` (the last wins where two set one attribute).
   */
  readonly resourceDetectors: readonly ResourceDetectorName[];
  /**
   * The instrumentations `OTEL_NODE_ENABLED_INSTRUMENTATIONS` / `OTEL_NODE_DISABLED_INSTRUMENTATIONS`
   * leave on: `http`, `undici` and the tool frameworks. `undefined` means every one.
   */
  readonly enabledInstrumentations: ReadonlySet<string> | undefined;
  readonly disabledInstrumentations: ReadonlySet<string>;
  readonly instrumentation: Pick<
    ToolInstrumentationConfig,
    'captureArguments' | 'captureResults' | 'disabledFrameworks'
  >;
  /**
   * `OTEL_PROPAGATORS`, of the two the register builds: both unless set; empty for `none` (no trace
   * headers on outgoing calls).
   */
  readonly propagators: readonly PropagatorName[];
  /** `OTEL_LOG_LEVEL`, lower-cased; `none` silences our stderr lines too. */
  readonly logLevel: string | undefined;
  /** Settings that cannot be honoured, one line each for stderr. */
  readonly warnings: readonly string[];
  /**
   * Values of this package's own variables that mean nothing (`OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS=yes`),
   * each naming the valid values; the register prints them on stderr like `warnings`.
   */
  readonly invalidValues: readonly string[];
}

type Env = Readonly<Record<string, string | undefined>>;

const EXPORTERS: readonly string[] = ['otlp', 'console'];
const PROTOCOLS: readonly string[] = ['http/protobuf', 'http/json', 'grpc'];
/** The OTLP exporters' own default: one export, retries included, may take 10 s. */
export const DEFAULT_EXPORT_TIMEOUT_MILLIS = 10_000;
/**
 * Only the exit is bounded: a finished script with no collector answering ends about a second
 * after its last line, while exports during the run keep their 10 s and their retries.
 */
export const DEFAULT_EXIT_TIMEOUT_MILLIS = 1_000;
/** The names auto-instrumentations-node reads from OTEL_NODE_RESOURCE_DETECTORS, in its order. */
export const RESOURCE_DETECTOR_NAMES = [
  'container',
  'host',
  'os',
  'serviceinstance',
  'process',
  'alibaba',
  'gcp',
  'aws',
  'azure',
  'env',
] as const;
export type ResourceDetectorName = (typeof RESOURCE_DETECTOR_NAMES)[number];
/** Unset, the detectors that need no extra package and no network: start and exit stay fast. */
const DEFAULT_RESOURCE_DETECTORS: readonly ResourceDetectorName[] = ['host', 'process', 'env'];
const DEFAULT_METRIC_EXPORT_INTERVAL_MILLIS = 60_000;

/**
 * A boolean switch: `true` or `false` (any case); unset or empty is `undefined`. Anything else is
 * reported and read as `false`, so a typo never turns capture on.
 */
function flag(env: Env, name: string, invalid: string[]): boolean | undefined {
  const value = env[name]?.trim().toLowerCase() ?? '';
  if (value === 'true') return true;
  if (value === '') return undefined;
  const problem = `${name}=${JSON.stringify(env[name])} is not valid; use true or false. Read as false.`;
  if (value !== 'false' && !invalid.includes(problem)) invalid.push(problem);
  return false;
}

/**
 * Our own switch when set, else the GenAI conventions' content-capture switch,
 * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`: the finer switch wins.
 */
function captureSwitch(env: Env, own: string, invalid: string[]): boolean {
  return flag(env, own, invalid) ?? genAiCapture(env, invalid) ?? false;
}

/** The GenAI switch, with the values OpenTelemetry's GenAI instrumentations accept. */
function genAiCapture(env: Env, invalid: string[]): boolean | undefined {
  const name = ENV_GENAI_CAPTURE_MESSAGE_CONTENT;
  const capture = genAiCaptureFrom(env[name]);
  if (capture !== 'invalid') return capture;
  const problem = `${name}=${JSON.stringify(env[name])} is not valid; use ${GENAI_CAPTURE_VALUES_TEXT}. Read as false.`;
  if (!invalid.includes(problem)) invalid.push(problem);
  return false;
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function exporters(variable: string, env: Env, warnings: string[]): ExporterName[] {
  const names = [...new Set(list(env[variable]))];
  if (names.length === 0) return ['otlp'];
  const chosen: ExporterName[] = [];
  for (const name of names) {
    if (name === 'none') continue;
    if (EXPORTERS.includes(name)) chosen.push(name as ExporterName);
    else warnings.push(`${variable}="${name}" is not supported (use otlp, console or none); ignored`);
  }
  return chosen;
}

function protocol(signal: Signal, env: Env, warnings: string[]): OtlpProtocol {
  const variable = `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`;
  const from = env[variable]?.trim() ? variable : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const value = env[from]?.trim() || 'http/protobuf';
  if (PROTOCOLS.includes(value)) return value as OtlpProtocol;
  warnings.push(
    `${from}="${value}" is not an OTLP protocol (http/protobuf, http/json, grpc); using http/protobuf`,
  );
  return 'http/protobuf';
}

/** `all`, `none` or a comma list of detector names; unknown names are reported and skipped. */
function resourceDetectors(env: Env, warnings: string[]): ResourceDetectorName[] {
  const variable = 'OTEL_NODE_RESOURCE_DETECTORS';
  if (!env[variable]?.trim()) return [...DEFAULT_RESOURCE_DETECTORS];
  const names = [...new Set(list(env[variable]))];
  if (names.includes('all')) return [...RESOURCE_DETECTOR_NAMES];
  if (names.includes('none')) return [];
  const known: readonly string[] = RESOURCE_DETECTOR_NAMES;
  const unknown = names.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    warnings.push(
      `${variable} names ${unknown.join(', ')}, which is not a resource detector; known: ${known.join(', ')}, all, none`,
    );
  }
  return names.filter((name): name is ResourceDetectorName => known.includes(name));
}

function millis(variable: string, env: Env, fallback: number, warnings: string[]): number {
  const raw = env[variable]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (Number.isFinite(value) && value > 0) return value;
  warnings.push(`${variable}="${raw}" is not a positive number of milliseconds; using ${fallback}`);
  return fallback;
}

function signal(name: Signal, env: Env, warnings: string[]): SignalSettings {
  const upper = name.toUpperCase();
  const generalTimeout = millis('OTEL_EXPORTER_OTLP_TIMEOUT', env, DEFAULT_EXPORT_TIMEOUT_MILLIS, warnings);
  return {
    exporters: exporters(`OTEL_${upper}_EXPORTER`, env, warnings),
    protocol: protocol(name, env, warnings),
    timeoutMillis: millis(`OTEL_EXPORTER_OTLP_${upper}_TIMEOUT`, env, generalTimeout, warnings),
  };
}

const PROPAGATORS: readonly PropagatorName[] = ['tracecontext', 'baggage'];

function isPropagatorName(name: string): name is PropagatorName {
  return (PROPAGATORS as readonly string[]).includes(name);
}

/** The W3C propagators named, `none` for none; with no known name, both (as before any was set). */
function propagators(env: Env): readonly PropagatorName[] {
  const names = list(env.OTEL_PROPAGATORS);
  if (names.includes('none')) return [];
  const known = names.filter(isPropagatorName);
  return known.length > 0 ? [...new Set(known)] : PROPAGATORS;
}

/** The register builds W3C trace context and baggage only; other propagators are reported. */
function propagatorsWarning(env: Env): string[] {
  const others = list(env.OTEL_PROPAGATORS).filter((name) => name !== 'none' && !isPropagatorName(name));
  return others.length === 0
    ? []
    : [
        `OTEL_PROPAGATORS="${others.join(',')}" is not supported: the register propagates tracecontext and baggage`,
      ];
}

function logsExporterWarning(env: Env): string[] {
  const names = list(env.OTEL_LOGS_EXPORTER).filter((name) => name !== 'none');
  return names.length === 0
    ? []
    : [
        `OTEL_LOGS_EXPORTER="${names.join(',')}" is not supported: this register exports traces and metrics only`,
      ];
}

export function readRegisterSettings(env: Env = process.env): RegisterSettings {
  const warnings: string[] = [];
  const invalidValues: string[] = [];
  const enabled = list(env.OTEL_NODE_ENABLED_INSTRUMENTATIONS);
  return {
    disabled: sdkDisabled(env),
    traces: signal('traces', env, warnings),
    metrics: signal('metrics', env, warnings),
    metricExportIntervalMillis: millis(
      'OTEL_METRIC_EXPORT_INTERVAL',
      env,
      DEFAULT_METRIC_EXPORT_INTERVAL_MILLIS,
      warnings,
    ),
    exitTimeoutMillis: millis(
      'OTEL_TOOL_ERRORS_EXIT_TIMEOUT',
      env,
      DEFAULT_EXIT_TIMEOUT_MILLIS,
      invalidValues,
    ),
    resourceDetectors: resourceDetectors(env, warnings),
    enabledInstrumentations: enabled.length > 0 ? new Set(enabled) : undefined,
    disabledInstrumentations: new Set(list(env.OTEL_NODE_DISABLED_INSTRUMENTATIONS)),
    instrumentation: {
      captureArguments: captureSwitch(env, 'OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS', invalidValues),
      captureResults: captureSwitch(env, 'OTEL_TOOL_ERRORS_CAPTURE_RESULTS', invalidValues),
      disabledFrameworks: list(env.OTEL_TOOL_ERRORS_DISABLED_FRAMEWORKS),
    },
    propagators: propagators(env),
    logLevel: env.OTEL_LOG_LEVEL?.trim().toLowerCase() || undefined,
    // A malformed OTEL_EXPORTER_OTLP_* value is read once per signal: report it once.
    warnings: [...new Set([...warnings, ...logsExporterWarning(env), ...propagatorsWarning(env)])],
    invalidValues,
  };
}

/** True when `name` stays on under OTEL_NODE_ENABLED_INSTRUMENTATIONS / _DISABLED_INSTRUMENTATIONS. */
export function instrumentationEnabled(settings: RegisterSettings, name: string): boolean {
  if (settings.disabledInstrumentations.has(name)) return false;
  return settings.enabledInstrumentations?.has(name) ?? true;
}
