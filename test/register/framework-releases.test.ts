import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { expect } from 'chai';
import { useRegisterBed } from '../helpers/register-bed';
import { runNode, type NodeRun } from '../helpers/run-node';
import { INSTRUMENTATION_VERSION } from '../../src/tool-span/scope';

/**
 * Framework releases that do not exist yet, under the register as users run it: a copy of
 * `@langchain/core` changed as a future release might change it, installed in an app folder, one
 * failing tool call in a child process under `--require` (CommonJS) and `--import` (ESM),
 * exporting to a local OTLP receiver. A newer release with the same patch points is patched; one
 * whose patch point is renamed or whose patched file moved, and one older than supported, are
 * left alone with one line on stderr, and the app prints what it prints bare.
 */

const ROOT = join(__dirname, '..', '..');
const INSTALLED = join(ROOT, 'node_modules', '@langchain', 'core');
const { version: INSTALLED_VERSION } = JSON.parse(readFileSync(join(INSTALLED, 'package.json'), 'utf8')) as {
  version: string;
};

/** What the app prints, bare or not: the tool call's failure, as LangChain rethrows it. */
const APP_OUTPUT = 'app: threw GET /503 failed with 503\n';

interface Release {
  readonly name: string;
  /** Changes the copy in `dir` (the package's folder) into this release. */
  change(dir: string): void;
}

const setVersion = (version: string) => (dir: string) => {
  const file = join(dir, 'package.json');
  const manifest = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  writeFileSync(file, JSON.stringify({ ...manifest, version }, null, 2));
};

/** Replaces `from` with `to` in every built file under `dir/dist` that has it. */
function replaceInBuilds(dir: string, from: RegExp, to: string): void {
  for (const entry of readdirSync(join(dir, 'dist'), { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.c?js$/.test(entry.name)) continue;
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, 'utf8');
    const changed = text.replace(from, to);
    if (changed !== text) writeFileSync(file, changed);
  }
}

const NEXT_MAJOR: Release = { name: 'the next major (2.0.0)', change: setVersion('2.0.0') };
const OLDER: Release = { name: 'an older release (0.3.80)', change: setVersion('0.3.80') };
const RENAMED: Release = {
  name: `a release whose StructuredTool.call is renamed (${INSTALLED_VERSION})`,
  change(dir) {
    replaceInBuilds(dir, /\basync call\(/g, 'async run(');
    replaceInBuilds(dir, /\b(this|super)\.call\(/g, '$1.run(');
  },
};
const MOVED: Release = {
  name: `a release whose tools file moved (${INSTALLED_VERSION})`,
  change(dir) {
    for (const extension of ['cjs', 'js']) {
      renameSync(join(dir, `dist/tools/index.${extension}`), join(dir, `dist/tools/main.${extension}`));
    }
    replaceInBuilds(dir, /tools\/index\.(c?js)/g, 'tools/main.$1');
    const file = join(dir, 'package.json');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(/dist\/tools\/index\.(c?js)"/g, 'dist/tools/main.$1"'),
    );
  },
};

interface Mode {
  readonly flag: '--require' | '--import';
  readonly entry: 'agent.cjs' | 'agent.mjs';
}
const MODES: readonly Mode[] = [
  { flag: '--require', entry: 'agent.cjs' },
  { flag: '--import', entry: 'agent.mjs' },
];

/** An app folder with the app and `release` installed as its `@langchain/core`. */
function installApp(release: Release): string {
  mkdirSync(join(ROOT, '.cache'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.cache', 'framework-release-'));
  const copy = join(dir, 'node_modules', '@langchain', 'core');
  cpSync(INSTALLED, copy, { recursive: true });
  release.change(copy);
  for (const mode of MODES)
    cpSync(join(__dirname, 'fixtures', 'langchain-agent', mode.entry), join(dir, mode.entry));
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'release-app', private: true, dependencies: { '@langchain/core': '*' } }),
  );
  return dir;
}

/** The lines this package wrote to stderr. */
const ourLines = (run: NodeRun) =>
  run.stderr.split('\n').filter((line) => line.startsWith('otel-tool-errors'));

describe('framework releases outside the tested range, under the register', function () {
  this.timeout(180_000);
  const bed = useRegisterBed({ receiverPerTest: true });
  const apps = new Map<Release, string>();
  before(() => {
    for (const release of [NEXT_MAJOR, OLDER, RENAMED, MOVED]) apps.set(release, installApp(release));
  });
  after(() => apps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  const registerArgs = (mode: Mode) => [
    mode.flag,
    mode.flag === '--require' ? bed.bundles.cjs : bed.bundles.esm,
  ];

  /** Runs the app of `release` bare, then under the register; returns both runs and the spans. */
  async function run(release: Release, mode: Mode, env: Record<string, string> = {}) {
    const script = join(apps.get(release)!, mode.entry);
    const common = { FLAKY_URL: bed.flaky.url };
    const bare = await runNode([], script, common);
    const registered = await runNode(registerArgs(mode), script, {
      ...common,
      OTEL_EXPORTER_OTLP_ENDPOINT: bed.receiver.endpoint,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_EXPORTER_OTLP_TIMEOUT: '10000',
      ...env,
    });
    expect(bare.stdout, bare.stderr).to.equal(APP_OUTPUT);
    return { bare, registered, spans: bed.receiver.spans() };
  }

  for (const mode of MODES) {
    describe(`node ${mode.flag} otel-tool-errors/register ${mode.entry}`, () => {
      it('patches the next major when its patch points are there, and says so at info level', async () => {
        const { registered, spans } = await run(NEXT_MAJOR, mode, { OTEL_LOG_LEVEL: 'info' });
        expect(registered.code).to.equal(0);
        expect(registered.stdout).to.contain(APP_OUTPUT);
        const tool = spans.find((span) => span.name === 'execute_tool lookup');
        expect(tool, registered.stderr).to.not.equal(undefined);
        expect(tool!.attributes['error.type']).to.equal('503');
        expect(tool!.attributes['tool.error_kind']).to.equal('transient');
        const output = registered.stdout + registered.stderr;
        expect(output).to.contain(
          `found @langchain/core 2.0.0, newer than the releases otel-tool-errors ${INSTRUMENTATION_VERSION} was tested with`,
        );
        expect(output).to.match(/frameworks found: @langchain\/core 2\.0\.0 patched \(newer than tested\)/);
      });

      it('leaves a release whose patched method is renamed alone, with one line on stderr', async () => {
        const { registered, spans } = await run(RENAMED, mode);
        expect(registered.code).to.equal(0);
        expect(registered.stdout).to.equal(APP_OUTPUT);
        expect(spans.filter((span) => span.name === 'execute_tool lookup')).to.deep.equal([]);
        expect(spans.some((span) => span.attributes['http.response.status_code'] === 503)).to.equal(true);
        expect(ourLines(registered)).to.deep.equal([
          `otel-tool-errors: @langchain/core ${INSTALLED_VERSION} has no StructuredTool.prototype.call, which ` +
            `otel-tool-errors ${INSTRUMENTATION_VERSION} patches, so nothing of @langchain/core was patched and ` +
            'its tool calls get no spans from otel-tool-errors. Upgrade otel-tool-errors.',
        ]);
      });

      it('tells when the release no longer has the file it patches, with one line on stderr', async () => {
        const { registered, spans } = await run(MOVED, mode);
        expect(registered.code).to.equal(0);
        expect(registered.stdout).to.equal(APP_OUTPUT);
        expect(spans.filter((span) => span.name === 'execute_tool lookup')).to.deep.equal([]);
        expect(ourLines(registered)).to.deep.equal([
          `otel-tool-errors: @langchain/core ${INSTALLED_VERSION} was loaded, but the files otel-tool-errors ` +
            `${INSTRUMENTATION_VERSION} patches in it (dist/tools/index.cjs, dist/tools/index.js) are not there, ` +
            'so its tool calls get no spans from otel-tool-errors. Upgrade otel-tool-errors.',
        ]);
      });

      it('leaves a release older than supported alone, with one line on stderr', async () => {
        const { registered, spans } = await run(OLDER, mode);
        expect(registered.code).to.equal(0);
        expect(registered.stdout).to.equal(APP_OUTPUT);
        expect(spans.filter((span) => span.name === 'execute_tool lookup')).to.deep.equal([]);
        const lines = ourLines(registered);
        expect(lines).to.have.length(1);
        expect(lines[0]).to.match(
          /^otel-tool-errors: @langchain\/core 0\.3\.80 is outside the releases otel-tool-errors \S+ supports \(>=\S+ <\S+\), so its tool calls get no spans from otel-tool-errors\. Install a supported release of @langchain\/core, or the newest otel-tool-errors\.$/,
        );
      });
    });
  }
});
