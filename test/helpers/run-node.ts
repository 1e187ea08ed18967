import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { startOtlpJsonReceiver, type ReceivedDataPoint, type ReceivedSpan } from './otlp-json-receiver';

export interface NodeRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs `node [nodeArgs] script` from the repository root with only the variables given (plus
 * PATH), never the test's own OTEL_*; killed after 30 s.
 */
export function runNode(nodeArgs: string[], script: string, env: Record<string, string>): Promise<NodeRun> {
  return runCommand(process.execPath, [...nodeArgs, script], env);
}

/**
 * Runs `command args` from `cwd` (the repository root unless given) with only the variables given
 * (plus PATH and, with `home`, HOME); killed after `killAfterMs`.
 */
export async function runCommand(
  command: string,
  args: string[],
  env: Record<string, string>,
  { killAfterMs = 30_000, home = false, cwd = join(__dirname, '..', '..') } = {},
): Promise<NodeRun> {
  const child = spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...(home ? { HOME: process.env.HOME ?? '' } : {}), ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
  const [code] = (await once(child, 'exit')) as [number | null];
  clearTimeout(killer);
  return { code, stdout, stderr };
}

/** A script run plain and under the register, and the spans the registered run exported. */
export interface PlainAndRegistered {
  plain: NodeRun;
  registered: NodeRun;
  spans: ReceivedSpan[];
  /** The metric points it exported, when `otelEnv` turns metrics on. */
  points: ReceivedDataPoint[];
}

/**
 * Runs `script` plain, then under the register (`registerArgs`, e.g. `--import <bundle>`) exporting
 * OTLP/JSON traces to a receiver on 127.0.0.1, with `env` for both runs and `otelEnv` for the
 * registered one (metrics off, a 10 s exit bound).
 */
export async function runPlainAndRegistered(
  registerArgs: string[],
  script: string,
  env: Record<string, string>,
  otelEnv: Record<string, string>,
): Promise<PlainAndRegistered> {
  const receiver = await startOtlpJsonReceiver();
  try {
    const plain = await runNode([], script, env);
    const registered = await runNode(registerArgs, script, {
      ...env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_METRICS_EXPORTER: 'none',
      // The receiver answers in the test's own process, which a loaded machine can keep past the
      // register's 1 s exit bound: the run would then say telemetry was lost.
      OTEL_TOOL_ERRORS_EXIT_TIMEOUT: '10000',
      ...otelEnv,
    });
    return { plain, registered, spans: receiver.spans(), points: receiver.dataPoints() };
  } finally {
    await receiver.close();
  }
}
