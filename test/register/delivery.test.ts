import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { expect } from 'chai';
import { refusedPort } from '../helpers/flaky-server';
import { startOtlpJsonReceiver, type OtlpJsonReceiver } from '../helpers/otlp-json-receiver';
import { buildRegisterBundles, type RegisterBundles } from '../helpers/register-bundles';

/**
 * What the register delivers when the collector has a bad moment, as users run it: a service
 * under `--require` (CommonJS) or `--import` (ESM) makes a failing tool call every 100 ms for 4 s
 * (batches every 200 ms) and exports OTLP/JSON to a receiver on 127.0.0.1 that misbehaves. Each
 * scenario checks which spans arrived (each exactly once), how long the exit took after the app's
 * last line, and the stderr line's numbers.
 *
 * The time bounds are generous, for a loaded 2-core machine: what they catch is a register that
 * holds the exit for the exporters' 10 s, or one that does not wait its bound, not tens of
 * milliseconds.
 */

const FIXTURES = join(__dirname, 'fixtures');
const CALLS = 40;
/** OTEL_TOOL_ERRORS_EXIT_TIMEOUT's default. */
const EXIT_TIMEOUT_MS = 1_000;
/**
 * What a loaded machine may add to the exit's own time (starting the flush, ending the process,
 * this test reading the app's last line late): several seconds, each bound below still short of
 * the exporters' 10 s.
 */
const EXIT_MARGIN_MS = 5_000;
/**
 * What a loaded machine may take off a wait the exit makes: this test may read the app's last line
 * late, after the wait has begun.
 */
const EARLY_MARGIN_MS = 500;

interface ServiceRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** From the app's last line (`calls=`) to the process's exit. */
  exitMs: number;
}

interface ServiceOptions {
  flag: '--require' | '--import';
  bundles: RegisterBundles;
  endpoint: string;
  env?: Record<string, string>;
  /** Called when the app prints its last line. */
  onLastLine?: (pid: number) => void;
}

async function runService(options: ServiceOptions): Promise<ServiceRun> {
  const [bundle, script] =
    options.flag === '--require'
      ? [options.bundles.cjs, 'service.cjs']
      : [options.bundles.esm, 'service.mjs'];
  const child = spawn(process.execPath, [options.flag, bundle, join(FIXTURES, script)], {
    cwd: join(__dirname, '..', '..'),
    env: {
      PATH: process.env.PATH ?? '',
      OTEL_SERVICE_NAME: 'delivery-test',
      OTEL_EXPORTER_OTLP_ENDPOINT: options.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_BSP_SCHEDULE_DELAY: '200',
      ...options.env,
    },
  });
  let stdout = '';
  let stderr = '';
  let lastLineAt: number | undefined;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (lastLineAt === undefined && stdout.includes('calls=')) {
      lastLineAt = Date.now();
      options.onLastLine?.(child.pid!);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 40_000);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(killer);
  const exitMs = Date.now() - (lastLineAt ?? Date.now());
  // The measured exit, for the README's outcomes table.
  console.log(`      exit ${exitMs} ms after the last line; stderr: ${stderr.trim() || '(nothing)'}`);
  return { code, signal, stdout, stderr, exitMs };
}

/** The `call.index` of each tool span received, sorted. */
function deliveredCalls(receiver: OtlpJsonReceiver): number[] {
  return receiver
    .spans()
    .filter((span) => span.attributes['gen_ai.tool.name'] === 'lookup')
    .map((span) => span.attributes['call.index'] as number)
    .sort((a, b) => a - b);
}

const everyCall = (count = CALLS) => Array.from({ length: count }, (_, index) => index);

/** The register's lines on stderr. */
function stderrLines(run: ServiceRun): string[] {
  return run.stderr.split('\n').filter((line) => line !== '');
}

/** What a scenario leaves to check: the service's run and where it exported to (the receiver, if any). */
interface Outcome {
  run: ServiceRun;
  endpoint: string;
  receiver?: OtlpJsonReceiver;
}

/** A collector's bad moment: how to run the service against it, and what must come of it. */
interface Scenario {
  title: string;
  run(options: Pick<ServiceOptions, 'flag' | 'bundles'>): Promise<Outcome>;
  check(outcome: Outcome): void;
}

/** The service run against a fresh receiver, set up by `prepare` to answer one way. */
async function againstReceiver(
  options: Pick<ServiceOptions, 'flag' | 'bundles'>,
  prepare: (receiver: OtlpJsonReceiver) => void,
): Promise<Outcome> {
  const receiver = await startOtlpJsonReceiver();
  prepare(receiver);
  return {
    receiver,
    endpoint: receiver.endpoint,
    run: await runService({ ...options, endpoint: receiver.endpoint }),
  };
}

const SCENARIOS: Scenario[] = [
  {
    title: '503 to the first three exports, then 200: every span once (the exporter retried), nothing said',
    run: (options) => againstReceiver(options, (receiver) => receiver.failTraceExports(503, 503, 503)),
    check({ run, receiver: received }) {
      const receiver = received!;
      expect([run.code, run.stderr]).to.deep.equal([0, '']);
      expect(deliveredCalls(receiver)).to.deep.equal(everyCall());
      // The last retry may wait out its backoff (up to 2.7 s after the one before) past the exit.
      expect(run.exitMs).to.be.below(3_000 + EXIT_MARGIN_MS);
    },
  },
  {
    title: 'the collector starts listening 1.5 s after the app: every span once, nothing said',
    async run(options) {
      const port = await refusedPort();
      let late: Promise<OtlpJsonReceiver> | undefined;
      const timer = setTimeout(() => (late = startOtlpJsonReceiver({ port })), 1_500);
      try {
        const run = await runService({ ...options, endpoint: `http://127.0.0.1:${port}` });
        return { run, endpoint: `http://127.0.0.1:${port}`, receiver: await late! };
      } finally {
        clearTimeout(timer);
      }
    },
    check({ run, receiver: received }) {
      const receiver = received!;
      expect([run.code, run.stderr]).to.deep.equal([0, '']);
      expect(deliveredCalls(receiver)).to.deep.equal(everyCall());
      expect(run.exitMs).to.be.below(EXIT_TIMEOUT_MS + EXIT_MARGIN_MS);
    },
  },
  {
    title: 'every export answered after 700 ms: every span once, nothing said',
    run: (options) => againstReceiver(options, (receiver) => receiver.setResponseDelay(700)),
    check({ run, receiver: received }) {
      const receiver = received!;
      expect([run.code, run.stderr]).to.deep.equal([0, '']);
      expect(deliveredCalls(receiver)).to.deep.equal(everyCall());
      expect(run.exitMs).to.be.below(700 + EXIT_MARGIN_MS);
    },
  },
  {
    title: 'the collector refuses at exit: what it took arrived once, the rest is counted as refused',
    async run(options) {
      const receiver = await startOtlpJsonReceiver();
      const run = await runService({
        ...options,
        endpoint: receiver.endpoint,
        // The app lingers half a second after its last line: the collector stops meanwhile.
        env: { LINGER_MS: '500' },
        onLastLine: () => void receiver.close(),
      });
      return { receiver, endpoint: receiver.endpoint, run };
    },
    check({ run, receiver: received }) {
      const receiver = received!;
      expect(run.code).to.equal(0);
      const delivered = deliveredCalls(receiver);
      expect(new Set(delivered).size, 'each span at most once').to.equal(delivered.length);
      const lost = CALLS - delivered.length;
      const lines = stderrLines(run);
      expect(lines, run.stderr).to.have.length(1);
      const metrics = `1 of 1 metric export to ${receiver.endpoint}/v1/metrics not delivered \\(1 refused`;
      const spans = `${lost} of ${CALLS} spans to ${receiver.endpoint}/v1/traces not delivered \\(${lost} refused`;
      expect(lines[0]).to.match(
        new RegExp(`^otel-tool-errors/register: telemetry lost: ${lost > 0 ? `${spans}.*; ` : ''}${metrics}`),
      );
      expect(lines[0]).to.include('Is the collector running?');
      expect(run.exitMs).to.be.below(500 + EXIT_TIMEOUT_MS + EXIT_MARGIN_MS);
    },
  },
  {
    title: 'a collector that never answers: the exit waits its bound, then one line counts every span',
    run: (options) => againstReceiver(options, (receiver) => receiver.stopAnswering()),
    check({ run, receiver: received }) {
      const receiver = received!;
      expect(run.code).to.equal(0);
      expect(stderrLines(run), run.stderr).to.deep.equal([
        `otel-tool-errors/register: telemetry lost: ${CALLS} of ${CALLS} spans to ${receiver.endpoint}/v1/traces ` +
          `not delivered (${CALLS} unanswered at exit); 1 of 1 metric export to ${receiver.endpoint}/v1/metrics ` +
          `not delivered (1 unanswered at exit). OTEL_TOOL_ERRORS_EXIT_TIMEOUT sets how long the exit waits (1000 ms).`,
      ]);
      expect(run.exitMs).to.be.within(EXIT_TIMEOUT_MS - EARLY_MARGIN_MS, EXIT_TIMEOUT_MS + EXIT_MARGIN_MS);
    },
  },
  {
    title:
      'no collector at all: the script exits about a second after its last line, one line counts the loss',
    async run(options) {
      const endpoint = `http://127.0.0.1:${await refusedPort()}`;
      return { endpoint, run: await runService({ ...options, endpoint }) };
    },
    check({ run, endpoint }) {
      expect(run.code).to.equal(0);
      expect(stderrLines(run), run.stderr).to.deep.equal([
        `otel-tool-errors/register: telemetry lost: ${CALLS} of ${CALLS} spans to ${endpoint}/v1/traces ` +
          `not delivered (${CALLS} refused, still retrying at exit); 1 of 1 metric export to ${endpoint}/v1/metrics ` +
          'not delivered (1 refused, still retrying at exit). Is the collector running? Set OTEL_EXPORTER_OTLP_ENDPOINT ' +
          'to where it listens. OTEL_TOOL_ERRORS_EXIT_TIMEOUT sets how long the exit waits (1000 ms).',
      ]);
      expect(run.exitMs).to.be.below(EXIT_TIMEOUT_MS + EXIT_MARGIN_MS);
    },
  },
];

describe('the register delivers what OpenTelemetry would (collectors with a bad moment)', function () {
  this.timeout(90_000);
  let bundles: RegisterBundles;
  let receiver: OtlpJsonReceiver | undefined;
  before(async () => {
    bundles = await buildRegisterBundles();
  });
  after(() => bundles?.dispose());
  afterEach(async () => {
    await receiver?.close();
    receiver = undefined;
  });

  // Each scenario under each flag; the runs of one flag go at once (they mostly wait on timers).
  for (const flag of ['--require', '--import'] as const) {
    describe(`node ${flag} otel-tool-errors/register`, () => {
      let outcomes: Promise<Outcome>[] = [];
      before(() => {
        outcomes = SCENARIOS.map((scenario) => scenario.run({ flag, bundles }));
        // Each is awaited by its test; a failure must not surface earlier as an unhandled rejection.
        for (const outcome of outcomes) outcome.catch(() => undefined);
      });
      after(async () => {
        for (const outcome of outcomes) await (await outcome.catch(() => undefined))?.receiver?.close();
      });
      SCENARIOS.forEach((scenario, index) => {
        it(scenario.title, async () => scenario.check(await outcomes[index]!));
      });
    });
  }

  // A service that loses spans while it runs hears of it then, and at exit gets the totals.
  const lostWhileRunning: [string, (receiver: OtlpJsonReceiver) => void, string][] = [
    ['answers 503 to every export', (r) => r.failTraceExports(...Array(100).fill(503)), 'HTTP 503'],
    ['never answers', (r) => r.stopAnswering(), 'timed out'],
  ];
  for (const [collector, misbehave, reason] of lostWhileRunning) {
    it(`a collector that ${collector}, 1.5 s export timeout: a line while the app runs, the totals at exit`, async () => {
      receiver = await startOtlpJsonReceiver();
      misbehave(receiver);
      const run = await runService({
        flag: '--require',
        bundles,
        endpoint: receiver.endpoint,
        env: { OTEL_EXPORTER_OTLP_TIMEOUT: '1500', OTEL_METRICS_EXPORTER: 'none' },
      });
      expect(run.code).to.equal(0);
      expect(deliveredCalls(receiver)).to.deep.equal([]);
      const traces = `${receiver.endpoint}/v1/traces`;
      const lines = stderrLines(run);
      expect(lines, run.stderr).to.have.length(2);
      const whileRunning = new RegExp(
        `^otel-tool-errors/register: telemetry lost: (\\d+) of (\\d+) spans to ${traces} not delivered ` +
          `\\(\\1 ${reason}(?: until the retries ran out)?\\)\\. .*The exit will say how much was lost in all\\.$`,
      );
      expect(lines[0]).to.match(whileRunning);
      const atExit = new RegExp(
        `^otel-tool-errors/register: telemetry lost in all: 40 of 40 spans to ${traces} not delivered \\((.*)\\)\\.`,
      );
      expect(lines[1]).to.match(atExit);
      // The reasons add up to the 40 spans, and the retries' answer is named.
      const reasons = atExit
        .exec(lines[1])![1]!
        .split(', ')
        .filter((part) => /^\d+ /.test(part));
      expect(reasons.reduce((sum, part) => sum + Number(part.split(' ')[0]), 0)).to.equal(CALLS);
      expect(lines[1]).to.include(reason);
    });
  }

  it('a collector that answered before and now takes 1.5 s: the exit waits past its bound for the last batch', async () => {
    receiver = await startOtlpJsonReceiver();
    receiver.setResponseDelay(1_500);
    const run = await runService({ flag: '--require', bundles, endpoint: receiver.endpoint });
    expect([run.code, run.stderr]).to.deep.equal([0, '']);
    expect(deliveredCalls(receiver)).to.deep.equal(everyCall());
    expect(run.exitMs).to.be.within(1_500 - EARLY_MARGIN_MS, 1_500 + EXIT_MARGIN_MS);
  });

  it('gRPC, nothing listens: refused exports are counted the same way, and the exit is not held', async () => {
    const endpoint = `http://127.0.0.1:${await refusedPort()}`;
    const run = await runService({
      flag: '--require',
      bundles,
      endpoint,
      env: { OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' },
    });
    expect(run.code).to.equal(0);
    // gRPC gives up on a refused connection at once: the first loss is said while the app runs.
    const lines = stderrLines(run);
    expect(lines, run.stderr).to.have.length(2);
    expect(lines[0]).to.match(
      /^otel-tool-errors\/register: telemetry lost: \d+ of \d+ spans .*\(\d+ refused\)/,
    );
    expect(lines[1]).to.match(
      new RegExp(
        `^otel-tool-errors/register: telemetry lost in all: 40 of 40 spans to ${endpoint} not delivered \\(40 refused\\)`,
      ),
    );
    expect(run.exitMs).to.be.below(EXIT_TIMEOUT_MS + EXIT_MARGIN_MS);
  });

  it('a burst beyond the span queue: the drops are counted in the one line', async () => {
    receiver = await startOtlpJsonReceiver();
    const run = await runService({
      flag: '--require',
      bundles,
      endpoint: receiver.endpoint,
      // 1000 calls at once into a queue of 100: one batch is exported, one waits, the rest is dropped.
      env: { CALLS: '1000', INTERVAL_MS: '0', OTEL_BSP_MAX_QUEUE_SIZE: '100', OTEL_METRICS_EXPORTER: 'none' },
    });
    expect(run.code).to.equal(0);
    expect(deliveredCalls(receiver)).to.deep.equal(everyCall(200));
    expect(stderrLines(run), run.stderr).to.deep.equal([
      `otel-tool-errors/register: telemetry lost: 800 of 1000 spans to ${receiver.endpoint}/v1/traces not delivered ` +
        '(800 dropped because the queue was full). OTEL_BSP_MAX_QUEUE_SIZE sets the queue for bursts.',
    ]);
  });

  it('an app that ends with process.exit(3): its code stays, the spans it left no time to send are counted', async () => {
    receiver = await startOtlpJsonReceiver();
    const run = await runService({
      flag: '--require',
      bundles,
      endpoint: receiver.endpoint,
      env: { EXIT_CODE: '3', OTEL_METRICS_EXPORTER: 'none' },
    });
    expect(run.code).to.equal(3);
    const delivered = deliveredCalls(receiver);
    expect(new Set(delivered).size, 'each span at most once').to.equal(delivered.length);
    const lost = CALLS - delivered.length;
    expect(lost, 'the last span was still queued').to.be.greaterThan(0);
    expect(stderrLines(run), run.stderr).to.have.length(1);
    // Queued spans, or those of an export still waiting for its answer, or both. The receiver may
    // have taken an export whose answer the process left no time to read: counted as lost, rightly
    // from where the app stands.
    const line = new RegExp(
      `^otel-tool-errors/register: telemetry lost: (\\d+) of ${CALLS} spans to ${receiver.endpoint}/v1/traces ` +
        'not delivered \\(((\\d+) still queued at exit)?(, )?((\\d+) unanswered at exit)?\\)\\. ' +
        'The app called process\\.exit\\(\\): set process\\.exitCode instead, and the register flushes first\\.$',
    ).exec(stderrLines(run)[0]!);
    expect(line, run.stderr).to.not.equal(null);
    const [reported, queued, unanswered] = [line![1], line![3], line![6]].map((n) => Number(n ?? 0));
    expect(queued! + unanswered!).to.equal(reported);
    expect(lost).to.be.within(queued!, reported!);
  });

  it('SIGTERM with a collector that never answers: exits by the signal within the bound, one line', async () => {
    receiver = await startOtlpJsonReceiver();
    receiver.stopAnswering();
    const run = await runService({
      flag: '--require',
      bundles,
      endpoint: receiver.endpoint,
      env: { LINGER_MS: '60000' },
      onLastLine: (pid) => process.kill(pid, 'SIGTERM'),
    });
    expect([run.code, run.signal]).to.deep.equal([null, 'SIGTERM']);
    expect(stderrLines(run)).to.have.length(1);
    expect(stderrLines(run)[0]).to.match(/telemetry lost: 40 of 40 spans .* \(40 unanswered at exit\)/);
    expect(run.exitMs).to.be.within(EXIT_TIMEOUT_MS - EARLY_MARGIN_MS, EXIT_TIMEOUT_MS + EXIT_MARGIN_MS);
  });
});
