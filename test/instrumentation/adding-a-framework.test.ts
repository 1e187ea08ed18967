import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { expect } from 'chai';
import type { Plugin } from 'esbuild';
import type { ToolInstrumentation } from '../../src/instrumentation/tool-instrumentation';
import { useRegisterBed } from '../helpers/register-bed';
import { runNode } from '../helpers/run-node';
import { createTestTracing } from '../helpers/tracing';

/**
 * Adding a framework as docs/contributing.md says: one adapter file (a throwaway one, for a made-up
 * `acme-agents` installed in a scratch node_modules) and one line in the adapters list, nothing
 * else. The line is added as the package is built (a plugin hands esbuild the list with it), then
 * both the instrumentation and the register, which knows the framework's modules before it loads
 * any adapter, patch the framework and a tool span comes out.
 */

const FIXTURES = join(__dirname, 'fixtures', 'adding-a-framework');
const ADAPTER = join(FIXTURES, 'acme.ts');

/** The adapters list with one line more: `acmeAdapter,`, and its import. */
const listWithAcme: Plugin = {
  name: 'list-with-acme',
  setup(build) {
    build.onLoad({ filter: /[\\/]src[\\/]instrumentation[\\/]adapters[\\/]index\.ts$/ }, (args) => {
      const list = readFileSync(args.path, 'utf8');
      const withAcme = list.replace(/(export const ADAPTERS\b[^=]*= \[\n)/, '$1  acmeAdapter,\n');
      if (withAcme === list) throw new Error('the adapters list has another shape than this test expects');
      return {
        contents: `import { acmeAdapter } from ${JSON.stringify(ADAPTER)};\n${withAcme}`,
        loader: 'ts',
      };
    });
  },
};

/** A made-up framework: `new Tool(name, execute).run({ id, input })`, CommonJS and ESM builds. */
function installAcme(app: string): void {
  const dir = join(app, 'node_modules', 'acme-agents');
  mkdirSync(join(dir, 'dist'), { recursive: true });
  const tool = `class Tool {
  constructor(name, execute) { this.name = name; this.execute = execute; }
  run(call) { return this.execute(call.input); }
}`;
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({
      name: 'acme-agents',
      version: '1.2.0',
      main: './dist/index.cjs',
      exports: { '.': { import: './dist/index.mjs', require: './dist/index.cjs' } },
    }),
  );
  writeFileSync(join(dir, 'dist', 'tools.cjs'), `${tool}\nmodule.exports = { Tool };\n`);
  writeFileSync(join(dir, 'dist', 'index.cjs'), "module.exports = require('./tools.cjs');\n");
  writeFileSync(join(dir, 'dist', 'tools.mjs'), `export ${tool}\n`);
  writeFileSync(join(dir, 'dist', 'index.mjs'), "export { Tool } from './tools.mjs';\n");
}

describe('adding a framework: one adapter file and one line in the list', function () {
  this.timeout(120_000);
  const bed = useRegisterBed({ receiverPerTest: true, esbuildPlugins: [listWithAcme] });
  let app: string;

  before(() => {
    app = mkdtempSync(join(tmpdir(), 'acme-app-'));
    installAcme(app);
    for (const script of ['app.cjs', 'app.mjs']) copyFileSync(join(FIXTURES, script), join(app, script));
  });
  after(() => {
    // The instrumentation's check at exit looks for the files of each package loaded: none here.
    for (const file of Object.keys(require.cache)) if (file.startsWith(app)) delete require.cache[file];
    rmSync(app, { recursive: true, force: true });
  });

  it('ToolInstrumentation patches it: a failed run is a failed execute_tool span', async () => {
    const { ToolInstrumentation: Instrumentation } = (await import(
      pathToFileURL(bed.bundles.libraryEsm).href
    )) as {
      ToolInstrumentation: typeof ToolInstrumentation;
    };
    const tracing = createTestTracing();
    const instrumentation = new Instrumentation({ enabled: false });
    instrumentation.setTracerProvider(tracing.provider);
    instrumentation.enable();
    try {
      const { Tool } = createRequire(join(app, 'app.cjs'))('acme-agents') as {
        Tool: new (name: string, execute: () => Promise<never>) => { run(call: object): Promise<unknown> };
      };
      const tool = new Tool('lookup_order', () =>
        Promise.reject(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' })),
      );
      await tool.run({ id: 'call_1', input: {} }).catch(() => undefined);
    } finally {
      instrumentation.disable();
    }
    expect(tracing.span('execute_tool lookup_order').attributes).to.include({
      'gen_ai.tool.call.id': 'call_1',
      'error.type': 'ECONNREFUSED',
      'tool.error_kind': 'network',
    });
    await tracing.shutdown();
  });

  for (const [flag, script] of [
    ['--require', 'app.cjs'],
    ['--import', 'app.mjs'],
  ] as const) {
    it(`the register (${flag}) starts on the framework's first load alone and patches it`, async () => {
      const entry = flag === '--require' ? bed.bundles.cjs : bed.bundles.esm;
      const { code, stdout, stderr } = await runNode([flag, entry], join(app, script), {
        OTEL_SERVICE_NAME: 'acme-app',
        OTEL_EXPORTER_OTLP_ENDPOINT: bed.receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_METRICS_EXPORTER: 'none',
      });
      expect([code, stdout.trim(), stderr]).to.deep.equal([0, 'ECONNREFUSED', '']);
      const span = bed.receiver.spans().find((received) => received.name === 'execute_tool lookup_order');
      expect(span?.attributes).to.include({ 'error.type': 'ECONNREFUSED', 'tool.error_kind': 'network' });
    });
  }

  it("the register's entry points hold the framework's declaration as data, and none of its adapter's code", () => {
    for (const file of [bed.bundles.cjs, join(bed.bundles.cjs, '..', 'register-esm-start.cjs')]) {
      const text = readFileSync(file, 'utf8');
      expect(text, file).to.include('"acme-agents/dist/tools.cjs"');
      expect(text, file).to.not.include('tracedRun');
    }
    expect(readFileSync(join(bed.bundles.cjs, '..', 'register-sdk.cjs'), 'utf8')).to.include('tracedRun');
  });
});
