import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect } from 'chai';
import { useRegisterBed } from '../helpers/register-bed';
import { runNode } from '../helpers/run-node';

/**
 * `node --require otel-tool-errors/register` on an ES module app that loads a dual framework twice:
 * by `import` (its ES module build) and through `createRequire` (its CommonJS build). Only the
 * CommonJS copy is patched, so the ES module copy's calls get no span, and the register says so
 * once, naming the framework and `--import`. A dual package whose ES module build re-exports its
 * CommonJS build is patched through it: both calls get spans, and nothing is said.
 *
 * Each app runs from a folder of its own in the system's temp folder, whose node_modules holds only
 * the package under test and zod (links to the installed ones), so that no other framework is
 * installed where the app imports from.
 */

const ROOT = join(__dirname, '..', '..');
const APP = join(__dirname, 'fixtures', 'esm-two-copies.mjs');
const INSTALLED = join(ROOT, 'node_modules');
const WARNING = /this app runs as ESM and no import-in-the-middle loader hook is active/g;
/**
 * Node 20 runs a CommonJS file that an ES module imports through `Module.prototype.require`, so the
 * files it requires pass require-in-the-middle's hooks. Node 22 and later give it a `require` of the
 * ES module loader's, which those hooks never see.
 */
const IMPORTED_COMMONJS_REQUIRES_THROUGH_HOOKS = Number(process.versions.node.split('.')[0]) < 22;

describe('the ES module check goes by the build that was patched (--require, ES module app)', function () {
  this.timeout(120_000);
  const bed = useRegisterBed({ receiverPerTest: true });
  const folders: string[] = [];

  after(() => {
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  /** A folder with the app and node_modules/zod, linked to the installed one. */
  function appFolder(): string {
    const folder = mkdtempSync(join(tmpdir(), 'otel-esm-builds-'));
    folders.push(folder);
    mkdirSync(join(folder, 'node_modules', '@langchain'), { recursive: true });
    symlinkSync(join(INSTALLED, 'zod'), join(folder, 'node_modules', 'zod'), 'dir');
    copyFileSync(APP, join(folder, 'app.mjs'));
    return folder;
  }

  const env = () => ({
    FLAKY_URL: bed.flaky.url,
    OTEL_EXPORTER_OTLP_ENDPOINT: bed.receiver.endpoint,
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_METRICS_EXPORTER: 'none',
  });

  const toolSpans = () =>
    bed.receiver
      .spans()
      .filter((span) => span.attributes['gen_ai.tool.name'] !== undefined)
      .map((span) => ({
        tool: span.attributes['gen_ai.tool.name'],
        errorType: span.attributes['error.type'],
        kind: span.attributes['tool.error_kind'],
      }));

  const OUTPUT = 'via_import: threw upstream failed\nvia_require: threw upstream failed\n';

  it('LangChain imported and loaded through createRequire: one warning naming @langchain/core and --import; spans for the CommonJS copy only', async () => {
    const folder = appFolder();
    // @langchain/core as installed: an ES module build and a CommonJS build of its own.
    symlinkSync(
      join(INSTALLED, '@langchain', 'core'),
      join(folder, 'node_modules', '@langchain', 'core'),
      'dir',
    );
    const result = await runNode(['--require', bed.bundles.cjs], join(folder, 'app.mjs'), env());
    expect(result.code, result.stderr).to.equal(0);
    expect(result.stdout).to.equal(OUTPUT);
    expect(result.stderr.match(WARNING), result.stderr).to.have.length(1);
    const lines = result.stderr.split('\n').filter((line) => line !== '');
    expect(lines, result.stderr).to.have.length(1);
    expect(lines[0]).to.include('frameworks installed here (@langchain/core)');
    expect(lines[0]).to.include('node --import otel-tool-errors/register');
    expect(toolSpans()).to.deep.equal([{ tool: 'via_require', errorType: '500', kind: 'transient' }]);
  });

  it('a dual package whose ES module build re-exports its CommonJS build: both copies patched, no warning (Node 20; later lines: neither, and the warning)', async () => {
    const folder = appFolder();
    // @langchain/core/tools as a wrapper package ships it: tools.mjs re-exports tools.cjs, which
    // requires the CommonJS build (the installed files the adapter patches, linked).
    const pkg = join(folder, 'node_modules', '@langchain', 'core');
    for (const file of ['dist/tools/index.cjs', 'dist/callbacks/manager.cjs']) {
      mkdirSync(dirname(join(pkg, file)), { recursive: true });
      symlinkSync(join(INSTALLED, '@langchain', 'core', file), join(pkg, file));
    }
    const { version } = JSON.parse(
      readFileSync(join(INSTALLED, '@langchain', 'core', 'package.json'), 'utf8'),
    ) as { version: string };
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({
        name: '@langchain/core',
        version,
        type: 'commonjs',
        exports: {
          './tools': { import: './tools.mjs', require: './tools.cjs' },
          './package.json': './package.json',
        },
      }),
    );
    writeFileSync(join(pkg, 'tools.cjs'), "module.exports = require('./dist/tools/index.cjs');\n");
    writeFileSync(
      join(pkg, 'tools.mjs'),
      "import tools from './tools.cjs';\nexport const { tool, StructuredTool, DynamicStructuredTool } = tools;\n",
    );
    const result = await runNode(['--require', bed.bundles.cjs], join(folder, 'app.mjs'), env());
    if (IMPORTED_COMMONJS_REQUIRES_THROUGH_HOOKS) {
      expect(result).to.deep.equal({ code: 0, stdout: OUTPUT, stderr: '' });
      expect(toolSpans()).to.have.deep.members([
        { tool: 'via_import', errorType: '500', kind: 'transient' },
        { tool: 'via_require', errorType: '500', kind: 'transient' },
      ]);
      return;
    }
    // The CommonJS build was loaded past require's hooks: nothing is patched, and the user is told.
    expect([result.code, result.stdout]).to.deep.equal([0, OUTPUT]);
    expect(result.stderr.match(WARNING), result.stderr).to.have.length(1);
    expect(result.stderr).to.include('frameworks installed here (@langchain/core)');
    expect(toolSpans()).to.deep.equal([]);
  });
});
