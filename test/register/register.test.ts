import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { expect } from 'chai';
import { refusedPort } from '../helpers/flaky-server';
import { startOtlpJsonReceiver } from '../helpers/otlp-json-receiver';
import { useRegisterBed } from '../helpers/register-bed';
import type { ReceivedSpan } from '../helpers/otlp-json-receiver';

/**
 * The zero-code entry points, as users run them: the register modules are bundled as the package
 * build makes them (`buildRegisterBundles`), then real child processes start with `--require` or
 * `--import` and export OTLP/HTTP JSON to a receiver on 127.0.0.1.
 */

const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(__dirname, 'fixtures');

interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** From the app's last output on stdout to the process's exit (the whole run, if it printed nothing). */
  exitMs: number;
}

interface RunOptions {
  nodeArgs: string[];
  script: string;
  env?: Record<string, string>;
  /** Called once stdout contains `text`, e.g. to send a signal. */
  onOutput?: { text: string; then: (pid: number) => void };
}

/** Runs a fixture with only the variables a user would set (plus PATH), never the test's own OTEL_*. */
async function run(options: RunOptions): Promise<RunResult> {
  let lastOutputAt = Date.now();
  const child = spawn(process.execPath, [...options.nodeArgs, join(FIXTURES, options.script)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', ...options.env },
  });
  let stdout = '';
  let stderr = '';
  let triggered = false;
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    lastOutputAt = Date.now();
    if (options.onOutput && !triggered && stdout.includes(options.onOutput.text)) {
      triggered = true;
      options.onOutput.then(child.pid!);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  clearTimeout(killer);
  return { code, signal, stdout, stderr, exitMs: Date.now() - lastOutputAt };
}

function toolSpan(spans: ReceivedSpan[], toolName: string): ReceivedSpan {
  const found = spans.filter((span) => span.attributes['gen_ai.tool.name'] === toolName);
  expect(found, `spans for ${toolName} in ${JSON.stringify(spans.map((s) => s.name))}`).to.have.length(1);
  return found[0]!;
}

describe('otel-tool-errors/register (zero-code entry points)', function () {
  this.timeout(60_000);
  const bed = useRegisterBed({ receiverPerTest: true });
  let registerCjs: string;
  let registerEsm: string;
  before(() => ({ cjs: registerCjs, esm: registerEsm } = bed.bundles));

  const signalEndpoints = (url: string) => ({
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: url,
    OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: url,
  });

  const exportingEnv = () => ({
    OTEL_SERVICE_NAME: 'register-test',
    OTEL_EXPORTER_OTLP_ENDPOINT: bed.receiver.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    FLAKY_URL: bed.flaky.url,
  });

  function expectAgentTelemetry(result: RunResult) {
    expect(result.stderr).to.equal('');
    expect(result.code).to.equal(0);
    expect(result.stdout).to.include('weather.error=true');
    expect(result.stdout).to.include('tracer-provider-registered=true');
    const spans = bed.receiver.spans();
    expect(spans.every((span) => span.serviceName === 'register-test')).to.equal(true);

    // ToolInstrumentation's span for the AI SDK tool, classified from the real thrown error.
    const weather = toolSpan(spans, 'get_weather');
    expect(weather.statusCode).to.equal(2);
    expect(weather.attributes).to.include({
      'error.type': '500',
      'tool.error_kind': 'transient',
      'tool.error_retryable': true,
    });
    // instrumentation-undici's span for the tool's fetch, under the tool span.
    const fetchSpans = spans.filter((span) => span.attributes['http.response.status_code'] === 500);
    expect(fetchSpans, 'the HTTP client span of the failing fetch').to.have.length(1);
    expect(fetchSpans[0]!.parentSpanId, 'the fetch span is a child of the tool span').to.equal(
      weather.spanId,
    );

    const time = toolSpan(spans, 'get_time');
    expect(time.statusCode).to.not.equal(2);
    expect(time.attributes).to.not.have.property('error.type');

    // ToolErrorSpanProcessor enriched the native span the app ended itself.
    const legacy = toolSpan(spans, 'legacy_lookup');
    expect(legacy.attributes).to.include({ 'error.type': 'ECONNREFUSED', 'tool.error_kind': 'network' });

    // Tool metrics, exported through the MeterProvider NodeSDK built from OTEL_METRICS_EXPORTER.
    const points = bed.receiver.dataPoints();
    const duration = points.filter((p) => p.metric === 'gen_ai.execute_tool.duration');
    expect(duration.find((p) => p.attributes['gen_ai.tool.name'] === 'get_time')?.attributes).to.deep.equal({
      'gen_ai.tool.name': 'get_time',
      'gen_ai.tool.type': 'function',
    });
    expect(
      points.find((p) => p.metric === 'tool.errors' && p.attributes['gen_ai.tool.name'] === 'get_weather'),
    ).to.deep.equal({
      metric: 'tool.errors',
      attributes: {
        'gen_ai.tool.name': 'get_weather',
        'gen_ai.tool.type': 'function',
        'error.type': '500',
        'tool.error_kind': 'transient',
      },
      value: 1,
    });
  }

  it('--require: a CommonJS app exports enriched tool spans, HTTP child spans and tool metrics', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'agent.cjs',
      env: exportingEnv(),
    });
    expectAgentTelemetry(result);
  });

  it('--import: an ESM app gets the same, through the import-in-the-middle hook', async () => {
    const result = await run({
      nodeArgs: ['--import', registerEsm],
      script: 'agent.mjs',
      env: exportingEnv(),
    });
    expectAgentTelemetry(result);
  });

  it("--require alone leaves an ESM app's imports unpatched: the hook is what --import adds", async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'agent.mjs',
      env: exportingEnv(),
    });
    expect(result.code).to.equal(0);
    const spans = bed.receiver.spans();
    expect(spans.filter((span) => span.attributes['gen_ai.tool.name'] === 'get_weather')).to.deep.equal([]);
    // The SDK itself runs: the processor still marks the app's own tool span.
    toolSpan(spans, 'legacy_lookup');
  });

  it('--import also covers a CommonJS app (require-in-the-middle runs under it too)', async () => {
    const result = await run({
      nodeArgs: ['--import', registerEsm],
      script: 'agent.cjs',
      env: exportingEnv(),
    });
    expectAgentTelemetry(result);
  });

  it('SIGTERM mid-run: flushes the spans already ended, then exits by the signal', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'sigterm.cjs',
      // A long batch delay: only the shutdown flush can deliver the span.
      env: { ...exportingEnv(), OTEL_BSP_SCHEDULE_DELAY: '600000' },
      onOutput: { text: 'span-ended', then: (pid) => process.kill(pid, 'SIGTERM') },
    });
    expect(result.signal).to.equal('SIGTERM');
    const span = toolSpan(bed.receiver.spans(), 'slow_report');
    expect(span.attributes).to.include({ 'error.type': 'timeout', 'tool.error_kind': 'timeout' });
  });

  it('SIGINT mid-run: the same, exiting by SIGINT', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'sigterm.cjs',
      env: { ...exportingEnv(), OTEL_BSP_SCHEDULE_DELAY: '600000' },
      onOutput: { text: 'span-ended', then: (pid) => process.kill(pid, 'SIGINT') },
    });
    expect(result.signal).to.equal('SIGINT');
    expect(toolSpan(bed.receiver.spans(), 'slow_report').statusCode).to.equal(2);
  });

  it('SIGTERM with the app listening too: flushes, and leaves the exit to the app', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'sigterm.cjs',
      env: { ...exportingEnv(), OTEL_BSP_SCHEDULE_DELAY: '600000', APP_HANDLES_SIGTERM: '1' },
      onOutput: { text: 'span-ended', then: (pid) => process.kill(pid, 'SIGTERM') },
    });
    expect(result.stdout).to.include('app-handler');
    expect([result.code, result.signal]).to.deep.equal([0, null]);
    expect(toolSpan(bed.receiver.spans(), 'slow_report').statusCode).to.equal(2);
  });

  it("SIGTERM: a span the app's own listener ends once the exit began is counted as lost, not dropped silently", async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'sigterm.cjs',
      env: {
        ...exportingEnv(),
        OTEL_BSP_SCHEDULE_DELAY: '600000',
        APP_HANDLES_SIGTERM: '1',
        APP_SPAN_IN_HANDLER: '1',
      },
      onOutput: { text: 'span-ended', then: (pid) => process.kill(pid, 'SIGTERM') },
    });
    expect([result.code, result.signal]).to.deep.equal([0, null]);
    expect(toolSpan(bed.receiver.spans(), 'slow_report').statusCode).to.equal(2);
    expect(result.stderr.trim().split('\n')).to.deep.equal([
      `otel-tool-errors/register: telemetry lost: 1 of 2 spans to ${bed.receiver.endpoint}/v1/traces not delivered ` +
        '(1 ended after the exit began).',
    ]);
  });

  // The exporters retry as OpenTelemetry's do, for up to 10 s; the exit waits for them at most
  // OTEL_TOOL_ERRORS_EXIT_TIMEOUT (1 s), then says once how much was lost and why.
  const unreachableCollectors: [string, () => Promise<Record<string, string>>, string][] = [
    [
      'down (connection refused)',
      async () => ({ OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${await refusedPort()}` }),
      'refused',
    ],
    [
      'answering 429 with Retry-After',
      async () => signalEndpoints(`${bed.flaky.url}/429?retryAfter=1`),
      'HTTP 429, still retrying at exit',
    ],
    [
      'answering 503',
      async () => signalEndpoints(`${bed.flaky.url}/503`),
      'HTTP 503, still retrying at exit',
    ],
    [
      'accepting and never answering',
      async () => signalEndpoints(`${bed.flaky.url}/hang`),
      'unanswered at exit',
    ],
  ];
  for (const [collector, endpoints, reason] of unreachableCollectors) {
    it(`collector ${collector}: the app's output is unchanged, one stderr line counts what was lost, no hang`, async () => {
      const env = { ...exportingEnv(), ...(await endpoints()) };
      const result = await run({ nodeArgs: ['--require', registerCjs], script: 'agent.cjs', env });
      expect(result.code).to.equal(0);
      expect(result.stdout).to.include('weather.error=true');
      const lines = result.stderr.trim().split('\n');
      expect(lines, result.stderr).to.have.length(1);
      expect(lines[0], lines[0]).to.match(
        new RegExp(
          `^otel-tool-errors/register: telemetry lost: (\\d+) of \\1 spans to http://127\\.0\\.0\\.1:\\d+/\\S+ ` +
            `not delivered \\(\\1 ${reason.replace(/[()]/g, '\\$&')}`,
        ),
      );
      // The exit's own bound (OTEL_TOOL_ERRORS_EXIT_TIMEOUT, 1 s) and several seconds of slack for
      // a loaded machine, measured from the app's last line: still short of the 10 s of retries
      // the exit does not wait for.
      expect(result.exitMs).to.be.below(1_000 + 5_000);
    });
  }

  it('collector down with OTEL_LOG_LEVEL=none: not a word on stderr', async () => {
    const port = await refusedPort();
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'agent.cjs',
      env: {
        ...exportingEnv(),
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        OTEL_LOG_LEVEL: 'none',
      },
    });
    expect([result.code, result.stderr]).to.deep.equal([0, '']);
    expect(result.stdout).to.include('weather.error=true');
  });

  it('OTEL_SDK_DISABLED=true: starts nothing', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'agent.cjs',
      env: { ...exportingEnv(), OTEL_SDK_DISABLED: 'true' },
    });
    expect(result.code).to.equal(0);
    expect(result.stdout).to.include('tracer-provider-registered=false');
    expect(bed.receiver.spans()).to.deep.equal([]);
    expect(bed.receiver.dataPoints()).to.deep.equal([]);
  });

  it('an SDK already registered by the app: no second SDK, and a warning that says so', async () => {
    const result = await run({
      nodeArgs: ['--require', join(FIXTURES, 'own-sdk.cjs'), '--require', registerCjs],
      script: 'agent.cjs',
      env: exportingEnv(),
    });
    expect(result.code).to.equal(0);
    expect(result.stderr).to.match(/otel-tool-errors\/register: an OpenTelemetry SDK is already registered/);
    expect(result.stdout).to.include('own-provider-active=true');
    expect(bed.receiver.spans()).to.deep.equal([]);
  });

  it('an app that starts its own NodeSDK under the register (twice): the first one gets its spans, and nothing is said', async () => {
    const appCollector = await startOtlpJsonReceiver();
    try {
      const result = await run({
        nodeArgs: ['--require', registerCjs],
        script: 'late-own-sdk.cjs',
        env: { ...exportingEnv(), APP_COLLECTOR: appCollector.tracesUrl },
      });
      expect([result.code, result.stderr]).to.deep.equal([0, '']);
      expect(result.stdout).to.include('app-work-done');
      // The api keeps the app's first provider, as without the register; the register's exit flushes it.
      expect(appCollector.spans().map((span) => span.name)).to.deep.equal(['app-work']);
      expect(bed.receiver.spans()).to.deep.equal([]);
    } finally {
      await appCollector.close();
    }
  });

  it('loaded twice (--require and --import): one SDK, one warning, each span exported once', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs, '--import', registerEsm],
      script: 'agent.cjs',
      env: exportingEnv(),
    });
    expect(result.code).to.equal(0);
    expect(
      result.stderr.match(/otel-tool-errors\/register: already started in this process; loaded twice\?/g),
    ).to.have.length(1);
    toolSpan(bed.receiver.spans(), 'get_weather');
    toolSpan(bed.receiver.spans(), 'legacy_lookup');
  });

  it('a setting that cannot be honoured: one stderr line each, the rest still runs', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'agent.cjs',
      env: { ...exportingEnv(), OTEL_TRACES_EXPORTER: 'zipkin,otlp', OTEL_METRICS_EXPORTER: 'prometheus' },
    });
    expect(result.code).to.equal(0);
    expect(result.stderr.trim().split('\n')).to.deep.equal([
      'otel-tool-errors/register: OTEL_TRACES_EXPORTER names zipkin, which is not supported (ignored); known: otlp, console, none',
      'otel-tool-errors/register: OTEL_METRICS_EXPORTER names prometheus, which is not supported (ignored); known: otlp, console, none',
    ]);
    // The supported exporter in the list still runs.
    toolSpan(bed.receiver.spans(), 'get_weather');
  });

  it('OTEL_LOG_LEVEL=none silences those lines', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'agent.cjs',
      env: { ...exportingEnv(), OTEL_TRACES_EXPORTER: 'zipkin,otlp', OTEL_LOG_LEVEL: 'none' },
    });
    expect([result.code, result.stderr]).to.deep.equal([0, '']);
    toolSpan(bed.receiver.spans(), 'get_weather');
  });

  it('OTEL_NODE_DISABLED_INSTRUMENTATIONS=undici: no fetch span; the tool span is still classified', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'agent.cjs',
      env: { ...exportingEnv(), OTEL_NODE_DISABLED_INSTRUMENTATIONS: 'undici' },
    });
    expect([result.code, result.stderr]).to.deep.equal([0, '']);
    const spans = bed.receiver.spans();
    expect(spans.filter((span) => span.attributes['http.response.status_code'] === 500)).to.deep.equal([]);
    expect(toolSpan(spans, 'get_weather').attributes).to.include({ 'error.type': '500' });
  });

  it('OTEL_NODE_ENABLED_INSTRUMENTATIONS=undici,express: only undici runs, and the unknown name is reported', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'agent.cjs',
      env: { ...exportingEnv(), OTEL_NODE_ENABLED_INSTRUMENTATIONS: 'undici,express' },
    });
    expect(result.code).to.equal(0);
    expect(result.stderr).to.match(
      /^otel-tool-errors\/register: OTEL_NODE_ENABLED_INSTRUMENTATIONS names express, which this register does not run; known: http, undici, mcp/,
    );
    const spans = bed.receiver.spans();
    // No framework is enabled: the AI SDK tool gets no span of ours, the fetch still gets its span.
    expect(spans.filter((span) => span.attributes['gen_ai.tool.name'] === 'get_weather')).to.deep.equal([]);
    expect(spans.filter((span) => span.attributes['http.response.status_code'] === 500)).to.have.length(1);
    // The processor still marks the app's own tool span.
    toolSpan(spans, 'legacy_lookup');
  });

  it('OTEL_SDK_DISABLED=true loads no OpenTelemetry SDK, exporter or instrumentation package', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'loaded-packages.cjs',
      env: { OTEL_SDK_DISABLED: 'true' },
    });
    expect([result.code, result.stderr]).to.deep.equal([0, '']);
    const none = { packages: [], apiFiles: 0 };
    expect(JSON.parse(result.stdout)).to.deep.equal({ atFirstLine: none, afterStart: none });
  });

  it("the default start loads no OpenTelemetry package's file but the api's, and no other protocol's exporter", async () => {
    // The SDK, the instrumentations and the http/protobuf exporters are bundled into the register's
    // SDK file; the api is the installed one, which the app shares; an optional peer (gRPC, OTLP/JSON
    // traces, a resource detector) would load from node_modules, and so would show here.
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'loaded-packages.cjs',
      env: {},
    });
    expect([result.code, result.stderr]).to.deep.equal([0, '']);
    // Nothing before the app's first need (here its require of http); then the api, and only it.
    const { atFirstLine, afterStart } = JSON.parse(result.stdout) as Record<
      string,
      { packages: string[]; apiFiles: number }
    >;
    expect(atFirstLine).to.deep.equal({ packages: [], apiFiles: 0 });
    expect(afterStart!.packages).to.deep.equal([]);
    expect(afterStart!.apiFiles).to.be.greaterThan(1);
  });

  it('a start loads no crypto (the resources take randomUUID from it only when the service instance detector runs)', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'start-up-modules.cjs',
      env: {},
    });
    expect([result.code, result.stderr]).to.deep.equal([0, '']);
    expect(JSON.parse(result.stdout)).to.deep.equal({ requireHook: true, importHook: true, crypto: false });
  });

  for (const setUp of ['the register', "the library in the app's own set-up"] as const) {
    it(`loading LangGraph under ${setUp} reads @langchain/core's package.json once, not once per file`, async () => {
      const result = await run({
        nodeArgs: setUp === 'the register' ? ['--require', registerCjs] : [],
        script: 'package-json-reads.cjs',
        env: setUp === 'the register' ? {} : { LIBRARY: bed.bundles.libraryEsm },
      });
      expect([result.code, result.stderr]).to.deep.equal([0, '']);
      const { coreFiles, reads } = JSON.parse(result.stdout) as {
        coreFiles: number;
        reads: Record<string, number>;
      };
      expect(coreFiles, 'files of @langchain/core loaded').to.be.greaterThan(200);
      // Read by the instrumentation's hook (for the version its patches need), then never again.
      expect(reads['@langchain/core/package.json']).to.equal(1);
      expect(Math.max(...Object.values(reads)), JSON.stringify(reads)).to.equal(1);
    });
  }

  for (const flag of ['--require', '--import'] as const) {
    it(`loading LangGraph under ${flag}: each resolution reaches Node's resolver once, and the same files load as without the register`, async () => {
      const load = (nodeArgs: string[]) =>
        run({
          nodeArgs: ['--require', join(FIXTURES, 'resolution-counter.cjs'), ...nodeArgs],
          script: 'load-langgraph.cjs',
        });
      const [plain, registered] = await Promise.all([
        load([]),
        load([flag, flag === '--require' ? registerCjs : registerEsm]),
      ]);
      for (const result of [plain, registered]) expect([result.code, result.stderr]).to.deep.equal([0, '']);
      type Counted = { resolutions: number; repeated: [string, number][]; loaded: string[] };
      const without = JSON.parse(plain.stdout) as Counted;
      const under = JSON.parse(registered.stdout) as Counted;
      expect(without.loaded.length, 'files of @langchain/* loaded').to.be.greaterThan(300);
      expect(under.loaded).to.deep.equal(without.loaded);
      // OpenTelemetry's require hook resolves each require again, and each new file's package: over
      // 3,000 resolutions, some 370 to 740 requests resolved more than once, before they were remembered.
      expect(under.repeated).to.deep.equal([]);
      // Under --import, Node resolves through the module hooks with its export conditions, and the
      // require hook without: each file once each way (1,668 against 1,448 without the register).
      if (flag === '--require') expect(under.resolutions).to.be.at.most(without.resolutions);
    });
  }

  it('a start reads no exporter code: the OTLP exporter (http/protobuf, the default) comes from its own file at the first export', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'register-files.cjs',
      env: { OTEL_SERVICE_NAME: 'register-test', OTEL_EXPORTER_OTLP_ENDPOINT: bed.receiver.endpoint },
    });
    expect([result.code, result.stderr]).to.deep.equal([0, '']);
    expect(JSON.parse(result.stdout)).to.deep.equal({
      atStart: ['register-sdk.cjs', 'register.cjs'],
      afterExport: ['register-exporters.cjs', 'register-sdk.cjs', 'register.cjs'],
    });
    const traces = bed.receiver.bodies.filter((body) => body.includes('exported-work'));
    expect(traces, 'one protobuf export with the span').to.have.length(1);
    expect(traces[0]!.includes('register-test')).to.equal(true);
  });

  it('OTEL_TRACES_EXPORTER=none: exports no spans but still exports the tool metrics', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'agent.cjs',
      env: { ...exportingEnv(), OTEL_TRACES_EXPORTER: 'none' },
    });
    expect(result.code).to.equal(0);
    expect(bed.receiver.spans()).to.deep.equal([]);
    expect(bed.receiver.dataPoints().some((p) => p.metric === 'tool.errors')).to.equal(true);
  });

  it('OTEL_TOOL_ERRORS_DISABLED_FRAMEWORKS leaves those frameworks unpatched; the processor still works', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'agent.cjs',
      env: { ...exportingEnv(), OTEL_TOOL_ERRORS_DISABLED_FRAMEWORKS: 'mcp, ai-sdk-v6' },
    });
    expect(result.code).to.equal(0);
    const spans = bed.receiver.spans();
    expect(spans.filter((span) => span.attributes['gen_ai.tool.name'] === 'get_weather')).to.deep.equal([]);
    toolSpan(spans, 'legacy_lookup');
  });

  it('an unknown name in OTEL_TOOL_ERRORS_DISABLED_FRAMEWORKS: a warning naming it, the rest still runs', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'agent.cjs',
      env: { ...exportingEnv(), OTEL_TOOL_ERRORS_DISABLED_FRAMEWORKS: 'langchian' },
    });
    expect(result.code).to.equal(0);
    expect(result.stderr).to.match(
      /OTEL_TOOL_ERRORS_DISABLED_FRAMEWORKS names langchian, which is no framework it instruments \(ignored\); known: mcp, langchain/,
    );
    const spans = bed.receiver.spans();
    // The misspelled name disables nothing: the instrumented tool still gets its span.
    expect(toolSpan(spans, 'get_weather').attributes).to.include({ 'error.type': '500' });
    expect(toolSpan(spans, 'legacy_lookup').attributes).to.include({ 'error.type': 'ECONNREFUSED' });
  });

  it('OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS and _RESULTS turn on argument and result capture', async () => {
    const result = await run({
      nodeArgs: ['--require', registerCjs],
      script: 'agent.cjs',
      env: {
        ...exportingEnv(),
        OTEL_TOOL_ERRORS_CAPTURE_ARGUMENTS: 'true',
        OTEL_TOOL_ERRORS_CAPTURE_RESULTS: 'true',
      },
    });
    expect(result.code).to.equal(0);
    const time = toolSpan(bed.receiver.spans(), 'get_time');
    expect(time.attributes).to.have.property('gen_ai.tool.call.arguments');
    expect(time.attributes).to.have.property('gen_ai.tool.call.result');
  });

  it('captures no arguments or results by default', async () => {
    await run({ nodeArgs: ['--require', registerCjs], script: 'agent.cjs', env: exportingEnv() });
    for (const span of bed.receiver.spans()) {
      expect(span.attributes).to.not.have.property('gen_ai.tool.call.arguments');
      expect(span.attributes).to.not.have.property('gen_ai.tool.call.result');
    }
  });
});
