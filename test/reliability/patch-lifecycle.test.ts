import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { build } from 'tsup';
import { instrumentTool } from '../../src/instrumentation/instrument-tool';
import { ToolInstrumentation } from '../../src/instrumentation/tool-instrumentation';
import { createTestTracing, type TestTracing } from '../helpers/tracing';

/**
 * Patching must be reversible and never stack: enable, disable and enable again leave one wrapper;
 * two instances, or two copies of the package (its CJS and ESM builds), still make one span per
 * call; and disabling puts the very original functions back.
 */

// Loaded after the instrumentation is enabled, so require-in-the-middle patches it.
const load = createRequire(__filename);
const root = join(__dirname, '..', '..');
const buildDir = join(root, '.cache', 'reliability-build');

type Patched = { (this: unknown, ...args: unknown[]): unknown; __wrapped?: boolean; __original?: unknown };
interface LcTool {
  invoke(input: unknown): Promise<unknown>;
}

describe('patch lifecycle', function () {
  this.timeout(60_000);
  let first: TestTracing;
  let second: TestTracing;
  const tally = { calls: 0, spans: 0 };

  before(() => {
    first = createTestTracing();
    second = createTestTracing();
  });
  afterEach(() => {
    first.reset();
    second.reset();
  });
  after(async () => {
    console.log(`      patch lifecycle: ${tally.calls} calls, ${tally.spans} tool spans`);
    await first.shutdown();
    await second.shutdown();
  });

  function langchain(): { proto: { call: Patched }; flaky: LcTool } {
    const tools = load('@langchain/core/tools');
    const flaky = tools.tool(
      async () => {
        throw Object.assign(new Error('upstream answered 503'), { status: 503 });
      },
      { name: 'flaky', description: 'fails' },
    ) as LcTool;
    return { proto: tools.StructuredTool.prototype, flaky };
  }

  /** Tool spans made by `calls` calls, per tracer provider. */
  async function spansOf(flaky: LcTool, calls: number): Promise<[number, number]> {
    first.reset();
    second.reset();
    for (let i = 0; i < calls; i++) await flaky.invoke({}).catch(() => undefined);
    const count = (t: TestTracing) => t.spans().filter((s) => s.name === 'execute_tool flaky').length;
    tally.calls += calls;
    tally.spans += count(first) + count(second);
    return [count(first), count(second)];
  }

  /** Two enabled instances, one exporting to `first`, the other to `second`. */
  function twoInstances(): [ToolInstrumentation, ToolInstrumentation] {
    return [first, second].map((tracing) => {
      const instrumentation = new ToolInstrumentation();
      instrumentation.setTracerProvider(tracing.provider);
      return instrumentation;
    }) as [ToolInstrumentation, ToolInstrumentation];
  }

  it('enable → disable → enable: one span per call, the original restored on each disable', async () => {
    const instrumentation = new ToolInstrumentation();
    instrumentation.setTracerProvider(first.provider);
    try {
      const { proto, flaky } = langchain();
      expect(proto.call.__wrapped, 'patched on load').to.equal(true);
      const original = proto.call.__original;
      expect(original).to.be.a('function');
      expect(await spansOf(flaky, 3)).to.deep.equal([3, 0]);

      instrumentation.disable();
      expect(proto.call).to.equal(original);
      expect(await spansOf(flaky, 2)).to.deep.equal([0, 0]);

      for (let round = 0; round < 3; round++) {
        instrumentation.enable();
        instrumentation.enable(); // twice on purpose: enabling an enabled instrumentation is a no-op
        expect(proto.call.__original, 'wraps the original, not a previous wrapper').to.equal(original);
        expect(await spansOf(flaky, 3)).to.deep.equal([3, 0]);
        instrumentation.disable();
        instrumentation.disable();
        expect(proto.call).to.equal(original);
      }
    } finally {
      instrumentation.disable();
    }
  });

  it('two instances: one span per call; disabling both restores the original', async () => {
    const [a, b] = twoInstances();
    try {
      const { proto, flaky } = langchain();
      const [inFirst, inSecond] = await spansOf(flaky, 4);
      expect(inFirst + inSecond, 'one span per call, whichever instance made it').to.equal(4);
      a.disable();
      b.disable();
      expect(proto.call.__wrapped).to.not.equal(true);
      expect(await spansOf(flaky, 2)).to.deep.equal([0, 0]);
    } finally {
      a.disable();
      b.disable();
    }
  });

  // The register's instance and an app's own, or two libraries each bringing one: turning one off
  // must not turn the other off. shimmer's unwrap restores whatever is under the top wrapper, so
  // the first disable() removes the other instance's wrapper.
  it('two instances: disabling one leaves the other tracing every call', async () => {
    const [a, b] = twoInstances();
    try {
      const { flaky } = langchain();
      a.disable();
      expect(await spansOf(flaky, 3), 'spans in [a, b] after a.disable()').to.deep.equal([0, 3]);
    } finally {
      a.disable();
      b.disable();
    }
  });

  it('instrumentTool over an instrumented tool, or twice over one function: one span per call', async () => {
    let runs = 0;
    const bare = async (x: number) => {
      runs++;
      if (x < 0) throw new RangeError('negative');
      return x * 2;
    };
    const once = instrumentTool(bare, 'double', { tracerProvider: first.provider });
    const twice = instrumentTool(once, 'double', { tracerProvider: first.provider });
    expect(await twice(2)).to.equal(4);
    await twice(-1).catch(() => undefined);
    expect(runs).to.equal(2);
    const spans = first.spans().filter((s) => s.name === 'execute_tool double');
    tally.calls += 2;
    tally.spans += spans.length;
    expect(spans).to.have.length(2);
    expect(spans[1].attributes['error.type']).to.equal('RangeError');
  });

  describe('two copies of the package in one process: its CJS and its ESM build', () => {
    before(async function () {
      this.timeout(60_000);
      // A private build, so that the suite never rewrites dist/ under another process.
      await build({
        entry: { index: join(root, 'src/index.ts') },
        format: ['cjs', 'esm'],
        outDir: buildDir,
        outExtension: ({ format }) => ({ js: format === 'cjs' ? '.cjs' : '.mjs' }),
        target: 'node18',
        config: false,
        dts: false,
        silent: true,
        clean: true,
      });
    });

    it('one span per call while both are enabled; the original restored once both are disabled', async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [join(__dirname, 'fixtures', 'two-copies.mjs'), buildDir],
        { cwd: root, env: { ...process.env, NODE_OPTIONS: '' } },
      );
      const result = JSON.parse(stdout.trim().split('\n').pop()!) as {
        distinctCopies: boolean;
        enabled: { spans: number; errorType?: string; status?: number }[];
        doubleWrapped: { spans: number; errorType?: string };
        restored: boolean;
        disabled: { spans: number }[];
      };
      tally.calls += result.enabled.length + result.disabled.length + 1;
      tally.spans += [...result.enabled, ...result.disabled, result.doubleWrapped].reduce(
        (n, c) => n + c.spans,
        0,
      );
      expect(result.distinctCopies, 'two module instances were loaded').to.equal(true);
      expect(result.enabled).to.deep.equal(Array(3).fill({ spans: 1, errorType: '503', status: 2 }));
      expect(result.doubleWrapped).to.deep.equal({ spans: 1, errorType: 'TypeError', status: 2 });
      expect(result.restored).to.equal(true);
      expect(result.disabled).to.deep.equal([{ spans: 0 }, { spans: 0 }]);
    });
  });
});
