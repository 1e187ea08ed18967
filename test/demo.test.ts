import { join } from 'node:path';
import { expect } from 'chai';
import { startOtlpJsonReceiver, type OtlpJsonReceiver } from './helpers/otlp-json-receiver';
import { runCommand } from './helpers/run-node';

/**
 * `npm run demo`, as the README tells users to run it: builds the package, starts the flaky
 * service, runs the agent under `--import otel-tool-errors/register`, and prints the table.
 */

const ROOT = join(__dirname, '..');

/** `command args` from the repository root, with HOME (npm needs it) and the variables given. */
const run = (command: string, args: string[], env: Record<string, string> = {}) =>
  runCommand(command, args, env, { killAfterMs: 60_000, home: true });

/** The table's data rows, as arrays of cells. */
function tableRows(stdout: string): Map<string, string[]> {
  const lines = stdout.split('\n');
  const header = lines.findIndex((line) => line.startsWith('tool ') && line.includes('error.type'));
  expect(header, `a table header in:\n${stdout}`).to.be.greaterThan(-1);
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(header + 2)) {
    if (line.trim() === '') break;
    const cells = line.trim().split(/\s{2,}/);
    rows.set(cells[0]!, cells);
  }
  return rows;
}

// tool -> [calls, outcome, error.type, tool.error_kind, retryable]
const EXPECTED_ROWS: Record<string, string[]> = {
  get_time: ['1', 'ok', '-', '-', '-'],
  convert_currency: ['1', 'ok', '-', '-', '-'],
  get_weather: ['1', 'error', '500', 'transient', 'yes'],
  get_stock_quote: ['1', 'error', '503', 'transient', 'yes'],
  lookup_user: ['1', 'error', '404', 'permanent', 'no'],
  read_inbox: ['1', 'error', '401', 'auth', 'no'],
  search_web: ['1', 'error', '429', 'rate_limit', 'yes'],
  translate_text: ['1', 'error', '429', 'quota', 'no'],
  fetch_news: ['1', 'error', 'timeout', 'timeout', 'yes'],
  query_inventory: ['1', 'error', 'ECONNREFUSED', 'network', 'yes'],
  book_flight: ['1', 'error', 'InvalidToolInputError', 'invalid_input', 'no'],
  send_fax: ['1', 'error', 'NoSuchToolError', 'unknown_tool', 'no'],
  mcp_lookup: ['1', 'error', 'tool_error', 'tool_error', 'no'],
};

describe('npm run demo', function () {
  this.timeout(120_000);
  let demo: Awaited<ReturnType<typeof run>>;

  before(async () => {
    // Also builds dist/, which the tests below use without rebuilding.
    demo = await run('npm', ['run', 'demo', '--silent']);
  });

  it('runs the agent under the register without a collector, and prints one row per tool', () => {
    expect(demo.code, demo.stderr).to.equal(0);
    // No collector configured: no connection errors, no warnings.
    expect(demo.stderr.replace(/^npm warn .*\n/gm, '')).to.equal('');
    const rows = tableRows(demo.stdout);
    expect([...rows.keys()]).to.deep.equal(Object.keys(EXPECTED_ROWS));
    for (const [tool, expected] of Object.entries(EXPECTED_ROWS)) {
      expect(rows.get(tool)!.slice(1, 6), tool).to.deep.equal(expected);
      expect(rows.get(tool)![6], tool).to.match(/^\d+(\.\d)? ms$/);
    }
    // The timeout row waited for the 300 ms AbortSignal.timeout.
    expect(parseFloat(rows.get('fetch_news')![6]!)).to.be.at.least(290);
    expect(demo.stdout).to.include('Telemetry stayed in this process');
  });

  describe('with OTEL_EXPORTER_OTLP_ENDPOINT set', () => {
    let receiver: OtlpJsonReceiver;
    let result: Awaited<ReturnType<typeof run>>;

    before(async () => {
      receiver = await startOtlpJsonReceiver();
      // The same command as `npm run demo`, without rebuilding.
      result = await run(process.execPath, ['examples/demo/run.mjs'], {
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      });
    });

    after(async () => {
      await receiver?.close();
    });

    it('exports the spans a collector search needs: error.type=500, error.type=timeout, tool.error_kind=rate_limit', () => {
      expect(result.code, result.stderr).to.equal(0);
      expect(result.stderr).to.equal('');
      const spans = receiver.spans();
      expect(spans.every((span) => span.serviceName === 'otel-tool-errors-demo')).to.equal(true);
      const byTool = (name: string) => spans.filter((span) => span.attributes['gen_ai.tool.name'] === name);
      expect(byTool('get_weather').map((s) => [s.statusCode, s.attributes['error.type']])).to.deep.equal([
        [2, '500'],
      ]);
      expect(byTool('fetch_news').map((s) => s.attributes['error.type'])).to.deep.equal(['timeout']);
      expect(byTool('search_web').map((s) => s.attributes['tool.error_kind'])).to.deep.equal(['rate_limit']);
      expect(byTool('get_time').map((s) => s.statusCode)).to.not.include(2);
      // One trace for the run: every tool span, named after its tool, descends from the agent's span.
      expect(byTool('get_weather').map((s) => s.name)).to.deep.equal(['execute_tool get_weather']);
      const root = spans.filter((span) => span.name === 'invoke_agent trip-planner');
      expect(root).to.have.length(1);
      const parentOf = new Map(spans.map((span) => [span.spanId, span.parentSpanId]));
      const rootOf = (spanId: string | undefined): string | undefined =>
        parentOf.get(spanId!) === undefined ? spanId : rootOf(parentOf.get(spanId!));
      for (const tool of Object.keys(EXPECTED_ROWS)) {
        for (const span of byTool(tool)) expect(rootOf(span.spanId), tool).to.equal(root[0]!.spanId);
      }
      expect(result.stdout).to.include(`Spans and metrics are exported to ${receiver.endpoint}`);
    });

    it('exports the tool metrics too', () => {
      const errors = receiver.dataPoints().filter((point) => point.metric === 'tool.errors');
      expect(
        errors.find((point) => point.attributes['gen_ai.tool.name'] === 'search_web')?.attributes,
      ).to.deep.equal({
        'gen_ai.tool.name': 'search_web',
        'gen_ai.tool.type': 'function',
        'error.type': '429',
        'tool.error_kind': 'rate_limit',
      });
      const durations = receiver
        .dataPoints()
        .filter((point) => point.metric === 'gen_ai.execute_tool.duration');
      expect(durations.map((point) => point.attributes['gen_ai.tool.name'])).to.include.members(
        Object.keys(EXPECTED_ROWS),
      );
    });
  });

  it('the package exports map: `--require otel-tool-errors/register` resolves to the CommonJS entry', async () => {
    const script =
      "const {trace} = require('@opentelemetry/api');" +
      "console.log(require.resolve('otel-tool-errors/register'), typeof trace.getTracerProvider().getDelegateTracer('x'))";
    const result = await run(process.execPath, ['--require', 'otel-tool-errors/register', '-e', script], {
      OTEL_TRACES_EXPORTER: 'none',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
    });
    expect(result.stderr).to.equal('');
    expect(result.stdout.trim()).to.equal(`${join(ROOT, 'dist', 'register.cjs')} object`);
  });
});
