import type { ToolInstrumentationConfig } from '../instrumentation/config';
import { ENV_GENAI_CAPTURE_MESSAGE_CONTENT } from '../semconv';

export type TracesExporterName = 'otlp' | 'console';
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';

/** What the zero-code entry points read from the environment, beyond what NodeSDK reads itself. */
export interface RegisterSettings {
  /** `OTEL_SDK_DISABLED=true`: start nothing. */
  readonly disabled: boolean;
  /** `OTEL_TRACES_EXPORTER`: default `otlp`; `none` means spans are enriched and counted but not exported. */
  readonly tracesExporters: readonly TracesExporterName[];
  /** `OTEL_EXPORTER_OTLP_TRACES_PROTOCOL`, else `OTEL_EXPORTER_OTLP_PROTOCOL`; default `http/protobuf`. */
  readonly tracesProtocol: OtlpProtocol;
  readonly instrumentation: Pick<
    ToolInstrumentationConfig,
    'captureArguments' | 'captureResults' | 'disabledFrameworks'
  >;
  /** Problems found, to report once a diag logger exists (NodeSDK installs it from `OTEL_LOG_LEVEL`). */
  readonly warnings: readonly string[];
  /**
   * Values of this package's own variables that mean nothing (`OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS=yes`),
   * each naming the valid values; the register prints them on stderr whatever the log level.
   */
  readonly invalidValues: readonly string[];
}

type Env = Readonly<Record<string, string | undefined>>;

const TRACES_EXPORTERS: readonly string[] = ['otlp', 'console'];
const PROTOCOLS: readonly string[] = ['http/protobuf', 'http/json', 'grpc'];

function isTrue(value: string | undefined): boolean {
  return value?.trim().toLowerCase() === 'true';
}

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
  return flag(env, own, invalid) ?? flag(env, ENV_GENAI_CAPTURE_MESSAGE_CONTENT, invalid) ?? false;
}

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '');
}

function tracesExporters(env: Env, warnings: string[]): TracesExporterName[] {
  const names = [...new Set(list(env.OTEL_TRACES_EXPORTER))];
  if (names.length === 0) return ['otlp'];
  const chosen: TracesExporterName[] = [];
  for (const name of names) {
    if (name === 'none') continue;
    if (TRACES_EXPORTERS.includes(name)) chosen.push(name as TracesExporterName);
    else warnings.push(`unsupported OTEL_TRACES_EXPORTER value "${name}"; use otlp, console or none`);
  }
  return chosen;
}

function tracesProtocol(env: Env, warnings: string[]): OtlpProtocol {
  const value = (
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL ||
    env.OTEL_EXPORTER_OTLP_PROTOCOL ||
    'http/protobuf'
  ).trim();
  if (PROTOCOLS.includes(value)) return value as OtlpProtocol;
  warnings.push(`unsupported OTLP protocol "${value}"; using http/protobuf`);
  return 'http/protobuf';
}

export function readRegisterSettings(env: Env = process.env): RegisterSettings {
  const warnings: string[] = [];
  const invalidValues: string[] = [];
  return {
    disabled: isTrue(env.OTEL_SDK_DISABLED),
    tracesExporters: tracesExporters(env, warnings),
    tracesProtocol: tracesProtocol(env, warnings),
    instrumentation: {
      captureArguments: captureSwitch(env, 'OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS', invalidValues),
      captureResults: captureSwitch(env, 'OTEL_TOOL_ERRORS_CAPTURE_RESULTS', invalidValues),
      disabledFrameworks: list(env.OTEL_TOOL_ERRORS_DISABLED_FRAMEWORKS),
    },
    warnings,
    invalidValues,
  };
}
