import { createRequire } from 'node:module';
import { expect } from 'chai';
import { createAdapterContext } from '../../src/instrumentation/adapters/adapter-context';
import { FrameworkSupport } from '../../src/instrumentation/framework-support';
import { ToolInstrumentation } from '../../src/instrumentation/tool-instrumentation';
import { diagLines } from '../helpers/diag-lines';
import { createTestTracing, type TestTracing } from '../helpers/tracing';

describe('the adapter context', () => {
  let tracing: TestTracing;
  let enabled: boolean;
  const ctx = () =>
    createAdapterContext(
      {
        tracer: () => tracing.tracer,
        config: () => ({}),
        isEnabled: () => enabled,
        support: new FrameworkSupport(),
      },
      {
        name: 'acme',
        packages: [
          { name: 'acme-agents', tested: ['*'] },
          { name: 'acme-tools', tested: ['*'] },
        ],
        setup: () => ({}),
      },
    );

  beforeEach(() => {
    tracing = createTestTracing();
    enabled = true;
  });
  afterEach(() => tracing.shutdown());

  it('traceToolCall records the ids and descriptions frameworks hand over only when they are text', () => {
    const context = ctx();
    context.traceToolCall({ name: 'lookup', callId: 42, description: { text: 'no' } }, () => 'ok');
    context.traceToolCall({ name: 'search', callId: 'call_1', description: 'Searches the web' }, () => 'ok');
    context.traceToolCall({ name: 'fetch', callId: '', description: '' }, () => 'ok');
    const attributes = (name: string) => tracing.span(`execute_tool ${name}`).attributes;
    expect(attributes('lookup')).to.not.have.any.keys('gen_ai.tool.call.id', 'gen_ai.tool.description');
    expect(attributes('search')).to.include({
      'gen_ai.tool.call.id': 'call_1',
      'gen_ai.tool.description': 'Searches the web',
    });
    expect(attributes('fetch')).to.not.have.any.keys('gen_ai.tool.call.id', 'gen_ai.tool.description');
  });

  it('wrapExports wraps class methods and exported functions while enabled, and takes them off', () => {
    class Client {
      call(x: number) {
        return x + 1;
      }
    }
    const originalCall = Client.prototype.call;
    const exports = { Client, helper: (x: number) => x * 2, untouched: () => 'same' };
    const originalHelper = exports.helper;
    const context = ctx();
    const patch = context.wrapExports({
      prototypes: {
        Client: {
          call:
            (original) =>
            (...args) =>
              `traced ${String(original(...args))}`,
        },
      },
      functions: {
        helper:
          (original) =>
          (...args) =>
            `traced ${String(original(...args))}`,
        missing: (o) => o,
      },
    });
    patch.patch(exports);
    expect(new Client().call(1)).to.equal('traced 2');
    expect(exports.helper(2)).to.equal('traced 4');
    expect(exports).to.not.have.property('missing');
    enabled = false;
    expect(new Client().call(1), 'a disabled instrumentation calls through').to.equal(2);
    patch.unpatch(exports);
    expect(Client.prototype.call).to.equal(originalCall);
    expect(exports.helper).to.equal(originalHelper);
  });

  it('patchPackage logs each patch with the module version, and a patch that throws leaves the exports as they are', async () => {
    const context = ctx();
    const exports = { value: 1 };
    const failing = context.patchPackage('acme-agents', {
      patch: () => {
        throw new Error('patch bug');
      },
      unpatch: () => {},
    });
    const working = context.patchPackage('acme-tools', { patch: () => undefined, unpatch: () => {} });
    let returned: unknown[] = [];
    const lines = await diagLines(() => {
      returned = [failing.patch!(exports, '1.2.3'), working.patch!(exports, '4.5.6')];
      working.unpatch!(exports, '4.5.6');
    });
    expect(returned[0]).to.equal(exports);
    expect(returned[1]).to.equal(exports);
    expect(lines).to.deep.include({ level: 'debug', line: 'otel-tool-errors patched acme-tools@4.5.6' });
    expect(lines).to.deep.include({ level: 'debug', line: 'otel-tool-errors unpatched acme-tools@4.5.6' });
    const error = lines.find((entry) => entry.level === 'error');
    expect(error?.line).to.contain('could not patch acme-agents').and.contain('patch bug');
  });

  it('patches only what the adapter declares: another package, or files of a package whose main exports it declares, throw', () => {
    const context = ctx();
    const patch = { patch: () => undefined, unpatch: () => {} };
    expect(() => context.patchPackage('acme-other', patch)).to.throw(
      'acme patches acme-other, which it does not declare',
    );
    expect(() =>
      context.patchFiles('acme-tools', [{ files: ['acme-tools/dist/index.js'], ...patch }]),
    ).to.throw('acme patches files of acme-tools other than it declares');
  });

  it('a real framework loaded under ToolInstrumentation logs its patched file and version at debug level', async () => {
    const instrumentation = new ToolInstrumentation({ enabled: false });
    const lines = await diagLines(() => {
      instrumentation.enable();
      createRequire(__filename)('@langchain/core/tools');
    });
    instrumentation.disable();
    const version = (createRequire(__filename)('@langchain/core/package.json') as { version: string })
      .version;
    expect(lines.map((entry) => entry.line)).to.include(
      `otel-tool-errors patched @langchain/core/dist/tools/index.cjs@${version}`,
    );
  });
});
