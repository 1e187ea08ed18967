import { join } from 'node:path';
import { expect } from 'chai';
import { useInstalledAppBed } from '../helpers/installed-app-bed';
import { runCommand, type NodeRun } from '../helpers/run-node';

/**
 * Tests of an agent under vitest, run as a user runs them (`npx vitest run --pool=threads` in the
 * app's folder, the package installed there, the register in NODE_OPTIONS), exporting OTLP to a
 * local receiver. vitest imports the AI SDK by its entry's file URL, which the register hands
 * import-in-the-middle as an import by name (stand-in-hook.ts), so the SDK is patched; in the worker
 * thread the register hands each span to the main thread, which exports it at its exit. The
 * default forks pool exports in each fork at its SIGTERM, and vitest kills the fork 500 ms later:
 * with a collector slower than that, the fork says so.
 */

const VITEST = join(__dirname, '..', '..', 'node_modules', '.bin', 'vitest');

describe('tests under vitest', function () {
  this.timeout(120_000);
  const bed = useInstalledAppBed(join(__dirname, 'fixtures', 'vitest-agent'));

  /** `vitest run [args]` in the app folder, with the register and the receiver's OTLP settings. */
  const vitest = (args: string[], env: Record<string, string> = {}): Promise<NodeRun> =>
    runCommand(
      VITEST,
      ['run', ...args],
      {
        NODE_OPTIONS: '--import otel-tool-errors/register',
        FLAKY_URL: bed.flaky.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: bed.receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_METRICS_EXPORTER: 'none',
        NO_COLOR: '1',
        ...env,
      },
      { cwd: bed.app.dir, killAfterMs: 90_000 },
    );

  for (const pool of ['threads'] as const) {
    it(`NODE_OPTIONS="--import otel-tool-errors/register" npx vitest run --pool=${pool}: the tool span is exported, classified`, async () => {
      const run = await vitest([`--pool=${pool}`]);
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stdout).to.match(/Tests\s+1 passed/);
      const spans = bed.receiver.spans();
      const tool = spans.filter((span) => span.name === 'execute_tool get_weather');
      expect(tool, JSON.stringify(spans.map((span) => span.name))).to.have.length(1);
      expect(tool[0]!.statusCode).to.equal(2);
      expect(tool[0]!.attributes).to.include({ 'error.type': '500', 'tool.error_kind': 'transient' });
      const fetchSpan = spans.find((span) => span.attributes['http.response.status_code'] === 500);
      expect(fetchSpan?.parentSpanId, 'the fetch span under the tool span').to.equal(tool[0]!.spanId);
      expect(`${run.stdout}\n${run.stderr}`).to.not.include('otel-tool-errors');
    });
  }

  it('the default forks pool, with a collector slower than vitest waits for a fork: one line says the spans may be lost', async () => {
    bed.receiver.setResponseDelay(3000);
    const run = await vitest([], { OTEL_TOOL_ERRORS_EXIT_TIMEOUT: '10000' });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stdout).to.match(/Tests\s+1 passed/);
    const ours = `${run.stdout}\n${run.stderr}`
      .split('\n')
      .filter((line) => line.includes('otel-tool-errors'));
    expect(ours).to.deep.equal([
      'otel-tool-errors/register: vitest kills this test fork 500 ms after stopping it, and its spans are still ' +
        'being exported: what is not sent by then is lost. Run vitest with --pool=threads, whose threads hand ' +
        'their spans to vitest\'s main process (docs/deployment.md, "Tests under vitest").',
    ]);
  });
});
