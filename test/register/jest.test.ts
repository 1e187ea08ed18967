import { join } from 'node:path';
import { expect } from 'chai';
import { useInstalledAppBed } from '../helpers/installed-app-bed';
import { runCommand, type NodeRun } from '../helpers/run-node';

/**
 * Tests of an agent under jest, run as a user runs them (`npx jest` in the app's folder, the package
 * installed there), exporting OTLP to a local receiver: jest loads the tests' modules through its
 * own registry, so the register patches none of the frameworks they load and says so once; the
 * recipe of docs/deployment.md (a setup file that starts tracing, tools wrapped with
 * instrumentTool) exports the failed tool span.
 */

const JEST = join(__dirname, '..', '..', 'node_modules', '.bin', 'jest');
const NOTICE =
  "otel-tool-errors/register: jest loads the tests' modules through its own module registry, which the " +
  'register cannot see: the frameworks your tests load are not patched and their tool calls get no spans ' +
  'from it. Start tracing in a jest setup file and wrap your tools with instrumentTool ' +
  '(docs/deployment.md, "Tests under jest").';

describe('tests under jest', function () {
  this.timeout(120_000);
  const bed = useInstalledAppBed(join(__dirname, 'fixtures', 'jest-agent'));

  /** `jest [args]` in the app folder, with the receiver's OTLP settings and `env`. */
  const jest = (args: string[], env: Record<string, string>): Promise<NodeRun> =>
    runCommand(
      JEST,
      ['--ci', ...args],
      {
        FLAKY_URL: bed.flaky.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: bed.receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_METRICS_EXPORTER: 'none',
        OTEL_TOOL_ERRORS_EXIT_TIMEOUT: '10000',
        ...env,
      },
      { cwd: bed.app.dir, killAfterMs: 90_000 },
    );

  const toolSpans = () => bed.receiver.spans().filter((span) => span.name === 'execute_tool get_weather');
  const ourLines = (run: NodeRun) =>
    `${run.stdout}\n${run.stderr}`.split('\n').filter((line) => line.includes('otel-tool-errors'));

  for (const entry of ['--require', '--import'] as const) {
    it(`NODE_OPTIONS="${entry} otel-tool-errors/register" npx jest: no tool span, and one line that says why`, async () => {
      // The tests without the set-up file: what the register alone gives.
      const run = await jest(['--config', '{}', '-w', '2'], {
        NODE_OPTIONS: `${entry} otel-tool-errors/register`,
      });
      expect(run.code, run.stderr).to.equal(0);
      expect(run.stderr)
        .to.match(/PASS .*agent\.test\.cjs/)
        .and.match(/PASS .*second\.test\.cjs/);
      expect(toolSpans()).to.deep.equal([]);
      expect(ourLines(run)).to.deep.equal([NOTICE]);
    });
  }

  it('the recipe: a setupFilesAfterEnv file that starts tracing, tools wrapped with instrumentTool', async () => {
    const run = await jest(['-w', '2'], { NODE_OPTIONS: '--experimental-vm-modules' });
    expect(run.code, run.stderr).to.equal(0);
    expect(run.stderr)
      .to.match(/PASS .*agent\.test\.cjs/)
      .and.match(/PASS .*second\.test\.cjs/);
    const spans = toolSpans();
    // One per test file: each file's context has its own provider, shut down (flushed) after its tests.
    expect(spans, run.stderr).to.have.length(2);
    for (const span of spans) {
      expect(span.statusCode).to.equal(2);
      expect(span.attributes).to.include({ 'error.type': '500', 'tool.error_kind': 'transient' });
    }
    expect(ourLines(run)).to.deep.equal([]);
  });
});
