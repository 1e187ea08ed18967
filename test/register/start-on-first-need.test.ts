import { cpSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { supportsSyncHooks } from 'import-in-the-middle/supports-sync-hooks.mjs';
import { useRegisterBed } from '../helpers/register-bed';
import { runCommand, runNode } from '../helpers/run-node';

/**
 * The register starts when the app first needs it (start-on-first-need.ts), not before its first
 * line: real child processes under `--require` and `--import`, exporting OTLP/JSON to a receiver on
 * 127.0.0.1, one per need, and one that needs nothing.
 */

const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(__dirname, 'fixtures', 'first-need');
/** What the ES module app under `--require` is told once the start ran (esm-set-up.ts): this repository has the frameworks. */
const ESM_UNDER_REQUIRE = 'no import-in-the-middle loader hook is active';

describe('the register starts on the first need', function () {
  this.timeout(60_000);
  const bed = useRegisterBed({ receiverPerTest: true });

  async function run(flag: '--require' | '--import', script: string, told = '') {
    const entry = flag === '--require' ? bed.bundles.cjs : bed.bundles.esm;
    const { code, stdout, stderr } = await runNode([flag, entry], join(FIXTURES, script), {
      OTEL_SERVICE_NAME: 'first-need',
      OTEL_EXPORTER_OTLP_ENDPOINT: bed.receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_METRICS_EXPORTER: 'none',
      FLAKY_URL: bed.flaky.url,
    });
    expect(code).to.equal(0);
    if (told === '') expect(stderr).to.equal('');
    else expect(stderr).to.include(told);
    return JSON.parse(stdout) as Record<string, unknown>;
  }

  for (const flag of ['--require', '--import'] as const) {
    it(`${flag}, an app that needs no telemetry: no SDK loaded, nothing exported, require still watched`, async () => {
      const result = await run(flag, 'no-need.cjs');
      expect(result).to.deep.equal({ sdkLoaded: false, requireIsNodes: false });
      expect(bed.receiver.requestCount()).to.equal(0);
    });

    it(`${flag}, the first need a fetch: its request gets a span with error.type, and fetch is Node's own after it`, async () => {
      const result = await run(flag, 'first-fetch.cjs');
      expect(result).to.deep.equal({
        before: { sdkLoaded: false, requireIsNodes: false },
        status: 503,
        // The start put require back (require-in-the-middle's now wraps Node's own).
        after: { sdkLoaded: true, requireIsNodes: false },
        restored: true,
      });
      const clients = bed.receiver.spans().filter((span) => span.kind === 3);
      expect(clients.map((span) => [span.name, span.attributes['error.type']])).to.deep.equal([
        ['GET', '503'],
      ]);
    });

    it(`${flag}, an app whose first need is a use of the api it imported: the start runs then, and its span is exported`, async () => {
      const result = await run(flag, 'api-by-import.cjs');
      expect(result).to.deep.equal({
        before: { sdkLoaded: false, requireIsNodes: false },
        after: { sdkLoaded: true, requireIsNodes: false },
      });
      expect(bed.receiver.spans().map((span) => span.name)).to.deep.equal(['app-work']);
    });
  }

  it('--require, a require of a hooked package by its path: the start runs before it loads', async () => {
    expect(await run('--require', 'require-by-path.cjs')).to.deep.equal({
      before: { sdkLoaded: false, requireIsNodes: false },
      after: { sdkLoaded: true, requireIsNodes: false },
    });
  });

  it("--require, a framework's first read of the registry an adapter fills (AI SDK 7's, installed under any name): the start runs then, and the reader finds the integration", async () => {
    expect(await run('--require', 'framework-registry.cjs')).to.deep.equal({
      before: { sdkLoaded: false, requireIsNodes: false },
      after: { sdkLoaded: true, requireIsNodes: false },
      integrations: 1,
      executeTool: 'function',
    });
  });

  it('--require, an ES module app that needs nothing: the start runs on its first turn', async () => {
    const result = await run('--require', 'esm-no-need.mjs', ESM_UNDER_REQUIRE);
    // Node 20 loads an ES module entry over several turns, so there the start may come first.
    expect(result).to.include({ afterATurn: true });
  });

  it("--import, an ES module app that needs nothing: no start, and import-in-the-middle's hook not made", async () => {
    expect(await run('--import', 'esm-no-need.mjs')).to.deep.equal({
      atFirstLine: false,
      afterATurn: false,
      importHookMade: false,
    });
  });

  it('--import, the first need an import the loader hook wraps (node:http): the start runs before it, and its request is traced', async () => {
    const result = await run('--import', 'import-http.mjs');
    expect(result).to.deep.equal({ atFirstLine: false, status: 429 });
    const spans = bed.receiver.spans();
    expect(
      spans.map((span) => [span.kind, span.attributes['http.response.status_code']]).sort(),
    ).to.deep.equal([
      [2, 429],
      [3, 429],
    ]);
  });

  /**
   * Runs import-after-http.mjs under `--import` in an app folder with the register's files and a
   * copy of import-in-the-middle that `edit` changes (given its folder); the folder is removed after.
   */
  async function runWithModifiedIitm(edit: (iitm: string) => void) {
    mkdirSync(join(ROOT, '.cache'), { recursive: true });
    const app = mkdtempSync(join(ROOT, '.cache', 'other-iitm-'));
    try {
      const dist = join(app, 'node_modules', 'otel-tool-errors', 'dist');
      mkdirSync(dist, { recursive: true });
      cpSync(dirname(bed.bundles.esm), dist, { recursive: true });
      const iitm = join(app, 'node_modules', 'import-in-the-middle');
      cpSync(join(ROOT, 'node_modules', 'import-in-the-middle'), iitm, { recursive: true });
      edit(iitm);
      const script = join(app, 'import-after-http.mjs');
      cpSync(join(FIXTURES, 'import-after-http.mjs'), script);
      const result = await runCommand(
        process.execPath,
        ['--import', join(dist, 'register-esm.mjs'), script],
        { OTEL_TRACES_EXPORTER: 'none', OTEL_METRICS_EXPORTER: 'none' },
        { cwd: app },
      );
      expect(result.code, result.stderr).to.equal(0);
      return { stderr: result.stderr, patched: JSON.parse(result.stdout) as Record<string, boolean> };
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  }

  it('--import with an import-in-the-middle that makes its hook otherwise: its own registration takes the later imports, and the user is told (skipped where Node runs module hooks only off-thread, which has no such fallback)', async function () {
    if (!supportsSyncHooks()) this.skip(); // the in-thread hook's case: off-thread, import-in-the-middle's hook.mjs is used as it exports itself
    // Its hook has its in-thread functions under other names (its own register-hooks.mjs uses them).
    const { stderr, patched } = await runWithModifiedIitm((iitm) => {
      replaceIn(
        join(iitm, 'create-hook.mjs'),
        /return \{ initialize, load, resolve, resolveSync, loadSync, applyOptions \}/,
        'return { initialize, load, resolve, resolveInThread: resolveSync, loadInThread: loadSync, applyOptions }',
      );
      replaceIn(
        join(iitm, 'register-hooks.mjs'),
        /resolve: hook\.resolveSync, load: hook\.loadSync/,
        'resolve: hook.resolveInThread, load: hook.loadInThread',
      );
    });
    expect(stderr).to.match(
      /^otel-tool-errors\/register: import-in-the-middle \(the ES module hook\) is not the version this register knows; the modules imported before this point are not patched\./,
    );
    expect(
      stderr
        .trim()
        .split('\n')
        .filter((line) => line.startsWith('otel-tool-errors')),
    ).to.have.length(1);
    // The first import, which started the register, went by; the next one is wrapped and patched.
    expect(patched).to.deep.equal({ http: false, https: true });
  });

  it('--import off-thread with an import-in-the-middle whose registry is elsewhere: the register starts at once, and every import is patched (skipped where Node runs module hooks in-thread, which has no registry to watch)', async function () {
    if (supportsSyncHooks()) this.skip(); // the off-thread hook's case: Node 20, 22 before 22.22.3, 24 before 24.11.1
    // The registry its wrappers report to is lib/registry.js, which the register does not know.
    const { stderr, patched } = await runWithModifiedIitm((iitm) => {
      renameSync(join(iitm, 'lib', 'register.js'), join(iitm, 'lib', 'registry.js'));
      replaceIn(join(iitm, 'create-hook.mjs'), /'lib\/register\.js'/, "'lib/registry.js'");
      replaceIn(join(iitm, 'index.js'), /'\.\/lib\/register'/, "'./lib/registry'");
    });
    expect(stderr).to.equal('');
    expect(patched).to.deep.equal({ http: true, https: true });
  });
});

/** Replaces `from` (which must be there) in a file. */
function replaceIn(file: string, from: RegExp, to: string): void {
  const text = readFileSync(file, 'utf8');
  expect(text, `${file} has ${from}`).to.match(from);
  writeFileSync(file, text.replace(from, to));
}
