import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { diag, DiagLogLevel } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

/**
 * Some frameworks can only be traced through process-wide state: Google ADK keeps one module-level
 * tracer bound to the first global provider it sees, VoltAgent registers its own global provider,
 * OpenLLMetry patches LangChain's CallbackManager for good. Their fixtures run in a child process
 * so that no other test file shares, or inherits, that state.
 */

/** An exported span, as JSON. */
export interface SpanRecord {
  name: string;
  kind: number;
  attributes: Record<string, unknown>;
  status: { code: number; message?: string };
  events: Array<{ name: string; attributes?: Record<string, unknown> }>;
}

interface FixtureOutput {
  spans: SpanRecord[];
  /** Everything logged through `diag` at WARN or above while the fixture ran. */
  diagnostics: string[];
}

const MARKER = 'FIXTURE_SPANS_JSON:';

/**
 * How long a fixture may run: far more than the few seconds each takes, so that a loaded machine
 * does not fail it, and less than the specs' own timeout, so that a fixture that hangs fails with
 * its output (the stages it reached) rather than with mocha's bare timeout.
 */
const FIXTURE_TIMEOUT_MS = 120_000;
/** The timeout for a spec or hook that runs one fixture. */
export const FIXTURE_SPEC_TIMEOUT_MS = FIXTURE_TIMEOUT_MS + 30_000;

/** Child side: a line on stderr saying how far the fixture got, shown only if it fails. */
export function stage(name: string): void {
  process.stderr.write(`fixture stage: ${name} (${Math.round(performance.now())} ms)\n`);
}

/** Child side: captures `diag` warnings and errors from now on. */
export function captureDiagnostics(): string[] {
  const captured: string[] = [];
  // The component logger passes its namespace first: the whole line is kept.
  const keep = (...args: unknown[]) => captured.push(args.map(String).join(' '));
  diag.setLogger(
    { error: keep, warn: keep, info: () => {}, debug: () => {}, verbose: () => {} },
    DiagLogLevel.WARN,
  );
  return captured;
}

/** Child side: hands the exported spans to the parent and exits (frameworks may keep timers alive). */
export function reportAndExit(spans: ReadableSpan[], diagnostics: string[]): never {
  const output: FixtureOutput = {
    diagnostics,
    spans: spans.map((span) => ({
      name: span.name,
      kind: span.kind,
      attributes: { ...span.attributes },
      status: { ...span.status },
      events: span.events.map((event) => ({ name: event.name, attributes: event.attributes })),
    })),
  };
  process.stdout.write(`\n${MARKER}${JSON.stringify(output)}\n`, () => process.exit(0));
  // process.exit runs from the write callback; this only satisfies the `never` type.
  throw new Error('unreachable');
}

/** Parent side: runs `test/processor/<fixture>` with tsx and returns what it reported. */
export function runFixture(
  fixture: string,
  args: string[] = [],
  env: NodeJS.ProcessEnv = {},
): Promise<FixtureOutput> {
  const root = resolve(__dirname, '../..');
  return new Promise((resolvePromise, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', resolve(__dirname, fixture), ...args],
      {
        cwd: root,
        env: { ...process.env, ...env },
        timeout: FIXTURE_TIMEOUT_MS,
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const line = stdout.split('\n').find((l) => l.startsWith(MARKER));
        if (error || !line) {
          reject(
            new Error(
              `fixture ${fixture} failed: ${error?.message ?? 'no output'}\n${stderr}\n${stdout.slice(-4000)}`,
            ),
          );
          return;
        }
        resolvePromise(JSON.parse(line.slice(MARKER.length)) as FixtureOutput);
      },
    );
  });
}

/**
 * Parent side: registers a `before` hook that runs the fixture once for the whole `describe`, and
 * returns what it reported (filled in once the hook has run).
 */
export function useFixture(fixture: string): FixtureOutput {
  const output: FixtureOutput = { spans: [], diagnostics: [] };
  before(async function () {
    this.timeout(FIXTURE_SPEC_TIMEOUT_MS);
    Object.assign(output, await runFixture(fixture));
  });
  return output;
}
