import type { ToolInstrumentationConfig } from '../instrumentation/types';
import {
  ENV_GENAI_CAPTURE_MESSAGE_CONTENT,
  GENAI_CAPTURE_VALUES_TEXT,
  genAiCaptureFrom,
} from '../instrumentation/capture-env';
import type { OtlpProtocol, Signal } from '../export/delivery';
import type { ExporterName, SignalSettings } from '../export/exporters';
import { FRAMEWORK_DECLARATIONS } from '../instrumentation/adapters/declarations';
import { sdkDisabled } from './sdk-disabled';

type PropagatorName = 'tracecontext' | 'baggage';

/** What the zero-code entry points read from the environment (docs/configuration.md). */
export interface RegisterSettings {
  readonly disabled: boolean;
  readonly traces: SignalSettings;
  readonly metrics: SignalSettings;
  readonly metricExportIntervalMillis: number;
  /** How long the exit waits for the last exports; exports during the run keep their 10 s and retries. */
  readonly exitTimeoutMillis: number;
  readonly resourceDetectors: readonly ResourceDetectorName[];
  /** `undefined`: every instrumentation (`http`, `undici` and the tool frameworks). */
  readonly enabledInstrumentations: ReadonlySet<string> | undefined;
  readonly disabledInstrumentations: ReadonlySet<string>;
  readonly instrumentation: Pick<
    ToolInstrumentationConfig,
    'captureArguments' | 'captureResults' | 'disabledFrameworks'
  >;
  /** Empty for `none`: no trace headers on outgoing calls. */
  readonly propagators: readonly PropagatorName[];
  /** `OTEL_LOG_LEVEL`, lower-cased; `none` silences our stderr lines too. */
  readonly logLevel: string | undefined;
  /** Settings that cannot be honoured, values that mean nothing, names nothing answers to: a line each. */
  readonly warnings: readonly string[];
}

type Env = Readonly<Record<string, string | undefined>>;

/**
 * The resource detectors by auto-instrumentations-node's names for OTEL_NODE_RESOURCE_DETECTORS, in
 * its order: an export of the resources package, or of an optional peer loaded only when named.
 */
export const RESOURCE_DETECTORS = {
  container: { name: '@opentelemetry/resource-detector-container', exports: ['containerDetector'] },
  host: 'hostDetector',
  os: 'osDetector',
  serviceinstance: 'serviceInstanceIdDetector',
  process: 'processDetector',
  alibaba: { name: '@opentelemetry/resource-detector-alibaba-cloud', exports: ['alibabaCloudEcsDetector'] },
  gcp: { name: '@opentelemetry/resource-detector-gcp', exports: ['gcpDetector'] },
  aws: {
    name: '@opentelemetry/resource-detector-aws',
    exports: [
      'awsEc2Detector',
      'awsEcsDetector',
      'awsEksDetector',
      'awsBeanstalkDetector',
      'awsLambdaDetector',
    ],
  },
  azure: {
    name: '@opentelemetry/resource-detector-azure',
    exports: ['azureAppServiceDetector', 'azureFunctionsDetector', 'azureVmDetector'],
  },
  env: 'envDetector',
} as const satisfies Record<string, string | { name: string; exports: readonly string[] }>;
type ResourceDetectorName = keyof typeof RESOURCE_DETECTORS;
const RESOURCE_DETECTOR_NAMES = Object.keys(RESOURCE_DETECTORS) as ResourceDetectorName[];
const PROPAGATORS: readonly PropagatorName[] = ['tracecontext', 'baggage'];

function list(value: string | undefined): string[] {
  const items = (value ?? '').split(',').map((item) => item.trim());
  return items.filter((item) => item !== '');
}

/** The names a list variable gives, each once; those none of `known` are reported as `what` they are. */
function names(env: Env, variable: string, known: readonly string[], what: string, warnings: string[]) {
  const given = [...new Set(list(env[variable]))];
  const unknown = given.filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    warnings.push(`${variable} names ${unknown.join(', ')}, which ${what}; known: ${known.join(', ')}`);
  }
  return given;
}

/**
 * Our own capture switch (`true` or `false`, any case) when set, else the GenAI conventions' one.
 * Anything else is reported and read as false, so that a typo never turns capture on.
 */
function captureSwitch(env: Env, name: string, warnings: string[]): boolean {
  const value = env[name]?.trim().toLowerCase() ?? '';
  if (value === 'true') return true;
  if (value !== '') {
    if (value !== 'false')
      warnings.push(`${name}=${JSON.stringify(env[name])} is not valid; use true or false. Read as false.`);
    return false;
  }
  const genAi = ENV_GENAI_CAPTURE_MESSAGE_CONTENT;
  const capture = genAiCaptureFrom(env[genAi]);
  if (capture !== 'invalid') return capture ?? false;
  warnings.push(
    `${genAi}=${JSON.stringify(env[genAi])} is not valid; use ${GENAI_CAPTURE_VALUES_TEXT}. Read as false.`,
  );
  return false;
}

function exporters(variable: string, env: Env, warnings: string[]): ExporterName[] {
  const known = ['otlp', 'console', 'none'];
  const given = names(env, variable, known, 'is not supported (ignored)', warnings);
  if (given.length === 0) return ['otlp'];
  return given.filter((name): name is ExporterName => name === 'otlp' || name === 'console');
}

function protocol(signal: Signal, env: Env, warnings: string[]): OtlpProtocol {
  const variable = `OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_PROTOCOL`;
  const from = env[variable]?.trim() ? variable : 'OTEL_EXPORTER_OTLP_PROTOCOL';
  const value = env[from]?.trim() || 'http/protobuf';
  if (value === 'http/protobuf' || value === 'http/json' || value === 'grpc') return value;
  warnings.push(
    `${from}="${value}" is not an OTLP protocol (http/protobuf, http/json, grpc); using http/protobuf`,
  );
  return 'http/protobuf';
}

/** `all`, `none` or detector names; unset, host, process and env, which need no package and no network. */
function resourceDetectors(env: Env, warnings: string[]): ResourceDetectorName[] {
  const variable = 'OTEL_NODE_RESOURCE_DETECTORS';
  if (!env[variable]?.trim()) return ['host', 'process', 'env'];
  const known: readonly string[] = RESOURCE_DETECTOR_NAMES;
  const given = names(env, variable, [...known, 'all', 'none'], 'is not a resource detector', warnings);
  if (given.includes('all')) return [...RESOURCE_DETECTOR_NAMES];
  if (given.includes('none')) return [];
  return given.filter((name): name is ResourceDetectorName => known.includes(name));
}

/** OTEL_PROPAGATORS: the W3C propagators it names, none for `none`; both where it names neither, as unset. */
function propagators(env: Env, warnings: string[]): readonly PropagatorName[] {
  const what = 'the register does not propagate';
  const given = names(env, 'OTEL_PROPAGATORS', [...PROPAGATORS, 'none'], what, warnings);
  if (given.includes('none')) return [];
  const known = PROPAGATORS.filter((name) => given.includes(name));
  return known.length > 0 ? known : PROPAGATORS;
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
  const generalTimeout = millis('OTEL_EXPORTER_OTLP_TIMEOUT', env, 10_000, warnings);
  return {
    exporters: exporters(`OTEL_${upper}_EXPORTER`, env, warnings),
    protocol: protocol(name, env, warnings),
    timeoutMillis: millis(`OTEL_EXPORTER_OTLP_${upper}_TIMEOUT`, env, generalTimeout, warnings),
  };
}

export function readRegisterSettings(env: Env = process.env): RegisterSettings {
  const warnings: string[] = [];
  const frameworks = FRAMEWORK_DECLARATIONS.map(({ name }) => name);
  const instrumentations = ['http', 'undici', ...frameworks];
  const notRun = 'this register does not run';
  const enabled = names(env, 'OTEL_NODE_ENABLED_INSTRUMENTATIONS', instrumentations, notRun, warnings);
  const disabled = names(env, 'OTEL_NODE_DISABLED_INSTRUMENTATIONS', instrumentations, notRun, warnings);
  const ignored = 'is no framework it instruments (ignored)';
  const disabledFrameworks = names(
    env,
    'OTEL_TOOL_ERRORS_DISABLED_FRAMEWORKS',
    frameworks,
    ignored,
    warnings,
  );
  const logs = list(env.OTEL_LOGS_EXPORTER).filter((name) => name !== 'none');
  if (logs.length > 0) {
    warnings.push(
      `OTEL_LOGS_EXPORTER="${logs.join(',')}" is not supported: this register exports traces and metrics only`,
    );
  }
  return {
    disabled: sdkDisabled(env),
    traces: signal('traces', env, warnings),
    metrics: signal('metrics', env, warnings),
    metricExportIntervalMillis: millis('OTEL_METRIC_EXPORT_INTERVAL', env, 60_000, warnings),
    exitTimeoutMillis: millis('OTEL_TOOL_ERRORS_EXIT_TIMEOUT', env, 1_000, warnings),
    resourceDetectors: resourceDetectors(env, warnings),
    enabledInstrumentations: enabled.length > 0 ? new Set(enabled) : undefined,
    disabledInstrumentations: new Set(disabled),
    instrumentation: {
      captureArguments: captureSwitch(env, 'OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS', warnings),
      captureResults: captureSwitch(env, 'OTEL_TOOL_ERRORS_CAPTURE_RESULTS', warnings),
      disabledFrameworks,
    },
    propagators: propagators(env, warnings),
    logLevel: env.OTEL_LOG_LEVEL?.trim().toLowerCase() || undefined,
    // A malformed OTEL_EXPORTER_OTLP_* value is read once per signal, the GenAI switch once per capture.
    warnings: [...new Set(warnings)],
  };
}

/** True when `name` stays on under OTEL_NODE_ENABLED_INSTRUMENTATIONS / _DISABLED_INSTRUMENTATIONS. */
export function instrumentationEnabled(settings: RegisterSettings, name: string): boolean {
  if (settings.disabledInstrumentations.has(name)) return false;
  return settings.enabledInstrumentations?.has(name) ?? true;
}
