import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { startFlakyServer, type FlakyServer } from '../helpers/flaky-server';

const run = promisify(execFile);

/**
 * The MCP call: the SERVER span ends first, with the handler's real 500 behind `tool_error`; the
 * CLIENT span sees only the isError text (`GET /500 failed`), so its kind is `tool_error`.
 */
const MCP_SPANS = [
  { name: 'tools/call mcp_tool', errorType: 'tool_error', kind: 'transient', status: 2 },
  { name: 'tools/call mcp_tool', errorType: 'tool_error', kind: 'tool_error', status: 2 },
];

/** What an app gets under either module system: MCP, LangChain and AI SDK v6 spans. */
const CJS_AND_ESM_SPANS = [
  ...MCP_SPANS,
  { name: 'execute_tool langchain_tool', errorType: '401', kind: 'auth', status: 2 },
  { name: 'execute_tool ai6_tool', errorType: '404', kind: 'permanent', status: 2 },
];

const fixtures = join(__dirname, 'fixtures');

interface SpanSummary {
  name: string;
  errorType?: string;
  kind?: string;
  status: number;
}

/**
 * The instrumentation in a fresh process per module system, preloaded the way an application
 * would (`--require` for CommonJS; `--import` plus the import-in-the-middle hook for ESM), with
 * the frameworks loaded by a plain JS app. tsx only compiles the TypeScript sources of this repo.
 */
describe('module systems (child processes)', function () {
  this.timeout(60_000);
  let server: FlakyServer;

  before(async () => {
    server = await startFlakyServer();
  });
  after(() => server.close());

  async function spansOf(args: string[], cwd = fixtures): Promise<SpanSummary[]> {
    const { stdout } = await run(process.execPath, args, {
      cwd,
      env: { ...process.env, FLAKY_URL: server.url, NODE_OPTIONS: '' },
    });
    return JSON.parse(stdout.trim().split('\n').pop()!) as SpanSummary[];
  }

  it('CommonJS (--require): MCP, LangChain and AI SDK v6 CJS builds are patched', async () => {
    const spans = await spansOf(['--require', 'tsx/cjs', '--require', './register.ts', 'app.cjs']);
    expect(spans).to.deep.equal(CJS_AND_ESM_SPANS);
  });

  // The MCP SDK's CommonJS build is hooked by absolute path; the path must be found from the
  // app's entry script, not only from the working directory (here a folder with no node_modules).
  it('CommonJS started from another working directory: the MCP build is still patched', async () => {
    const spans = await spansOf(
      [
        '--require',
        require.resolve('tsx/cjs'),
        '--require',
        join(fixtures, 'register.ts'),
        join(fixtures, 'app.cjs'),
      ],
      tmpdir(),
    );
    expect(spans.slice(0, 2)).to.deep.equal(MCP_SPANS);
  });

  it('ESM (--import with the import-in-the-middle hook): the ESM builds and ai@7 are covered', async () => {
    const spans = await spansOf(['--import', 'tsx', '--import', './register-esm.mjs', 'app.mjs']);
    expect(spans).to.deep.equal([
      ...CJS_AND_ESM_SPANS,
      { name: 'execute_tool ai7_tool', errorType: '503', kind: 'transient', status: 2 },
    ]);
  });

  it('ESM without the hook: only ai@7 (no patching needed) is covered, proving the ESM builds ran', async () => {
    const spans = await spansOf(['--import', 'tsx', '--import', './register.ts', 'app.mjs']);
    expect(spans.map((span) => span.name)).to.deep.equal(['execute_tool ai7_tool']);
  });
});
