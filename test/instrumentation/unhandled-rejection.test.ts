import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'chai';

const fixtures = join(__dirname, 'fixtures');
/** Set OTHER_NODE to a second Node binary (e.g. Node 24) to run the same comparison on it too. */
const NODES = [process.execPath, ...(process.env.OTHER_NODE ? [process.env.OTHER_NODE] : [])];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  spans?: { name: string; status: number; errorType?: string }[];
}

function runApp(node: string, env: Record<string, string>): Promise<Run> {
  const dir = mkdtempSync(join(tmpdir(), 'unhandled-'));
  const spansFile = join(dir, 'spans.json');
  return new Promise((resolve) => {
    execFile(
      node,
      ['--require', 'tsx/cjs', 'unhandled-rejection.cjs'],
      { cwd: fixtures, env: { ...process.env, NODE_OPTIONS: '', SPANS_FILE: spansFile, ...env } },
      (error, stdout, stderr) => {
        let spans: Run['spans'];
        try {
          spans = JSON.parse(readFileSync(spansFile, 'utf8')) as Run['spans'];
        } catch {
          spans = undefined;
        }
        rmSync(dir, { recursive: true, force: true });
        resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr, spans });
      },
    );
  });
}

/**
 * The app with and without the package: the same exit code (1, the crash, with no listener) and
 * the same stdout.
 */
async function runBoth(node: string, env: Record<string, string>): Promise<[Run, Run]> {
  const [bare, instrumented] = await Promise.all([
    runApp(node, { ...env, WITH_PACKAGE: '0' }),
    runApp(node, { ...env, WITH_PACKAGE: '1' }),
  ]);
  expect(bare.code).to.equal(env.LISTENER === '1' ? 0 : 1);
  expect(instrumented.code).to.equal(bare.code);
  expect(instrumented.stdout).to.equal(bare.stdout);
  return [bare, instrumented];
}

/**
 * A tool called fire-and-forget whose promise rejects: the app must see the same
 * `unhandledRejection` (the crash with no listener, the listener's call with the same promise
 * object otherwise) with the package as without it.
 */
describe('unhandled rejections are the app’s, with or without the package (child processes)', function () {
  this.timeout(120_000);
  let server: Server;
  let failingUrl: string;
  before(async () => {
    server = createServer((_req, res) => res.writeHead(500).end('{"error":"upstream"}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    failingUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/500`;
  });
  after(() => new Promise((resolve) => server.close(resolve)));

  for (const node of NODES) {
    for (const shape of ['later', 'async']) {
      for (const listener of ['0', '1']) {
        it(`${shape} rejection, ${listener === '1' ? 'a listener' : 'no listener'} (${node === process.execPath ? 'this Node' : node})`, async () => {
          const [bare, instrumented] = await runBoth(node, { SHAPE: shape, LISTENER: listener });
          expect(instrumented.stderr).to.equal(bare.stderr);
          if (listener === '1') {
            expect(bare.stdout).to.match(/listener: .*boom, same promise: true/);
            // The reason went to the app, so the span knows only that the promise failed.
            expect(instrumented.spans).to.deep.equal([
              { name: 'execute_tool fire_and_forget', status: 2, errorType: '_OTHER' },
            ]);
          }
        });
      }
    }

    it(`a rejection the caller handles later, not at once: no unhandledRejection, the span has the reason (${node === process.execPath ? 'this Node' : node})`, async () => {
      const env = { SHAPE: 'caught', LISTENER: '1' };
      const [bare, instrumented] = await Promise.all([
        runApp(node, { ...env, WITH_PACKAGE: '0' }),
        runApp(node, { ...env, WITH_PACKAGE: '1' }),
      ]);
      // The app's 200 ms timer may fire before the two event-loop turns on a loaded machine.
      const lines = (out: string) => out.trim().split('\n').sort();
      expect(lines(bare.stdout)).to.deep.equal(['called', 'caught: handled boom', 'still running']);
      expect([instrumented.code, lines(instrumented.stdout), instrumented.stderr]).to.deep.equal([
        bare.code,
        lines(bare.stdout),
        bare.stderr,
      ]);
      expect(instrumented.spans).to.deep.equal([
        { name: 'execute_tool fire_and_forget', status: 2, errorType: 'Error' },
      ]);
    });

    it(`got's PCancelable called fire-and-forget that fails with 500: the same unhandledRejection (${node === process.execPath ? 'this Node' : node})`, async () => {
      for (const listener of ['0', '1']) {
        const env = { SHAPE: 'got', LISTENER: listener, FAILING_URL: failingUrl };
        const [bare, instrumented] = await runBoth(node, env);
        if (listener === '1') expect(bare.stdout).to.match(/listener: Request failed with status code 500/);
        // The crash prints the error with got's timings, which differ from run to run.
        else expect(instrumented.stderr).to.match(/HTTPError: Request failed with status code 500/);
        // Nobody reacted to it: its span ended on the next turn, without the outcome.
        expect(instrumented.spans).to.deep.equal([{ name: 'execute_tool fire_and_forget', status: 0 }]);
      }
    });

    it(`a Bluebird promise called fire-and-forget that rejects: Bluebird reports it as without the package (${node === process.execPath ? 'this Node' : node})`, async () => {
      for (const listener of ['0', '1']) {
        const env = { SHAPE: 'bluebird', LISTENER: listener };
        const [bare, instrumented] = await Promise.all([
          runApp(node, { ...env, WITH_PACKAGE: '0' }),
          runApp(node, { ...env, WITH_PACKAGE: '1' }),
        ]);
        // Bluebird does not end the process: it calls the listener, or prints the rejection.
        expect(bare.code).to.equal(0);
        if (listener === '1') expect(bare.stdout).to.match(/listener: bluebird boom, same promise: true/);
        else expect(bare.stderr).to.match(/^Unhandled rejection Error: bluebird boom/);
        // The error is made inside the call, so the printed stack has the wrapper's frames too.
        const head = (run: Run) => run.stderr.split('\n')[0];
        expect([instrumented.code, instrumented.stdout, head(instrumented)]).to.deep.equal([
          bare.code,
          bare.stdout,
          head(bare),
        ]);
        // As for a native promise: nobody handled it, so the span knows only that it failed.
        expect(instrumented.spans).to.deep.equal([
          { name: 'execute_tool fire_and_forget', status: 2, errorType: '_OTHER' },
        ]);
      }
    });
  }
});
