import { join } from 'node:path';
import { build } from 'esbuild';
import { expect } from 'chai';
import { useInstalledAppBed } from '../helpers/installed-app-bed';
import { runNode, type NodeRun } from '../pipeline/run-node';

/**
 * The deployment recipes of docs/deployment.md, as written: the register through `NODE_OPTIONS` (as a
 * Dockerfile or a process manager sets it) for CommonJS, ESM and a TypeScript entry, and an app
 * bundled with esbuild, whole (the frameworks cannot be patched: one line says so) and with its
 * packages kept external (the recipe). The app folder has the package installed as a user's has;
 * each run makes one LangChain tool call that fails on a 503 and exports to a local receiver.
 */

const APP_OUTPUT = 'app: threw GET /503 failed with 503\n';
const KILL_AFTER_MS = 60_000;

describe('deployment recipes: NODE_OPTIONS, TypeScript entries, bundles', function () {
  this.timeout(240_000);
  const bed = useInstalledAppBed(join(__dirname, 'fixtures', 'langchain-agent'));

  /** Runs `node args` in the app folder with `env` and the receiver's OTLP settings. */
  const run = (args: string[], env: Record<string, string> = {}): Promise<NodeRun> =>
    runNode(
      args,
      bed.app.dir,
      {
        FLAKY_URL: bed.flaky.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: bed.receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_METRICS_EXPORTER: 'none',
        ...env,
      },
      KILL_AFTER_MS,
    );

  /** The run printed what the app prints and exported its failed tool span, classified. */
  function expectToolSpan(result: NodeRun): void {
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.equal(APP_OUTPUT);
    const tool = bed.receiver.spans().find((span) => span.name === 'execute_tool lookup');
    expect(tool, result.stderr).to.not.equal(undefined);
    expect(tool!.attributes).to.include({ 'error.type': '503', 'tool.error_kind': 'transient' });
    // Node's own warnings (type stripping, a typeless package.json) may appear; none of ours.
    expect(result.stderr.split('\n').filter((line) => line.includes('otel-tool-errors'))).to.deep.equal([]);
  }

  it('NODE_OPTIONS="--require otel-tool-errors/register" node agent.cjs', async () => {
    expectToolSpan(await run(['agent.cjs'], { NODE_OPTIONS: '--require otel-tool-errors/register' }));
  });

  it('NODE_OPTIONS="--import otel-tool-errors/register" node agent.mjs', async () => {
    expectToolSpan(await run(['agent.mjs'], { NODE_OPTIONS: '--import otel-tool-errors/register' }));
  });

  it('NODE_OPTIONS="--import otel-tool-errors/register" tsx agent.ts', async () => {
    const tsx = require.resolve('tsx/cli');
    expectToolSpan(await run([tsx, 'agent.ts'], { NODE_OPTIONS: '--import otel-tool-errors/register' }));
  });

  it('NODE_OPTIONS="--import otel-tool-errors/register" node agent.ts (type stripping: skipped before Node 22.6, which has none; the Node matrix runs it on 22, 24 and 26)', async function () {
    const [major, minor] = process.versions.node.split('.').map(Number) as [number, number];
    // Type stripping came with Node 22.6 (on by default from 23.6); the Node matrix runs this on 22+.
    if (major < 22 || (major === 22 && minor < 6)) this.skip(); // no type stripping before Node 22.6
    const strip = major === 22 ? ' --experimental-strip-types' : '';
    expectToolSpan(await run(['agent.ts'], { NODE_OPTIONS: `--import otel-tool-errors/register${strip}` }));
  });

  it('an esbuild bundle that keeps its packages external (the recipe) gets its tool spans', async () => {
    await bundle('external.cjs', { packages: 'external' });
    expectToolSpan(await run(['--require', 'otel-tool-errors/register', 'external.cjs']));
  });

  it('an esbuild bundle with the framework inside gets one line that says so, and runs as before', async () => {
    await bundle('bundled.cjs', {});
    const result = await run(['--require', 'otel-tool-errors/register', 'bundled.cjs']);
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.equal(APP_OUTPUT);
    expect(bed.receiver.spans().some((span) => span.name === 'execute_tool lookup')).to.equal(false);
    expect(result.stderr.split('\n').filter((line) => line !== '')).to.deep.equal([
      'otel-tool-errors: @langchain/core was bundled into bundled.cjs, where otel-tool-errors cannot patch it, ' +
        'so its tool calls get no spans from otel-tool-errors. Keep the frameworks out of the bundle: esbuild ' +
        '--packages=external (or --external:@langchain/core), webpack externals.',
    ]);
  });

  /** Bundles agent.cjs for Node into `outfile` in the app folder, as a user's build script would. */
  async function bundle(outfile: string, options: { packages?: 'external' }): Promise<void> {
    await build({
      entryPoints: [join(bed.app.dir, 'agent.cjs')],
      outfile: join(bed.app.dir, outfile),
      bundle: true,
      platform: 'node',
      format: 'cjs',
      logLevel: 'error',
      ...options,
    });
  }
});
