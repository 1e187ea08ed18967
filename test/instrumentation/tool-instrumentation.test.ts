import { createRequire } from 'node:module';
import { expect } from 'chai';
import type { InstrumentToolOptions, ToolInstrumentationConfig } from '../../src/instrumentation/types';
import { instrumentTool } from '../../src/instrumentation/instrument-tool';
import { ToolInstrumentation } from '../../src/instrumentation/tool-instrumentation';
import { createTestTracing, type TestTracing } from '../helpers/tracing';

const REGISTRY = 'AI_SDK_TELEMETRY_INTEGRATIONS';

function registered(): unknown[] {
  return ((globalThis as Record<string, unknown>)[REGISTRY] as unknown[] | undefined) ?? [];
}

describe('ToolInstrumentation', () => {
  it('is an InstrumentationBase named otel-tool-errors that hooks every framework by default', () => {
    const instrumentation = new ToolInstrumentation({ enabled: false });
    expect(instrumentation.instrumentationName).to.equal('otel-tool-errors');
    expect(instrumentation.instrumentationVersion).to.match(/^\d+\.\d+\.\d+/);
    const names = instrumentation.getModuleDefinitions().map((module) => module.name);
    expect(names).to.include.members(['@modelcontextprotocol/sdk', '@langchain/core', 'ai']);
  });

  it('captures content when OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true, unless its own options say otherwise', () => {
    const previous = process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT;
    process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT = 'true';
    try {
      expect(new ToolInstrumentation({ enabled: false }).getConfig()).to.include({
        captureArguments: true,
        captureResults: true,
      });
      expect(new ToolInstrumentation({ enabled: false, captureResults: false }).getConfig()).to.include({
        captureArguments: true,
        captureResults: false,
      });
      // The other values OpenTelemetry's GenAI instrumentations take: content on spans, or not.
      for (const [value, capture] of [
        ['SPAN_ONLY', true],
        ['SPAN_AND_EVENT', true],
        ['EVENT_ONLY', false],
        ['NO_CONTENT', false],
      ] as const) {
        process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT = value;
        expect(new ToolInstrumentation({ enabled: false }).getConfig(), value).to.include({
          captureArguments: capture,
          captureResults: capture,
        });
      }
    } finally {
      if (previous === undefined) delete process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT;
      else process.env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT = previous;
    }
    expect(new ToolInstrumentation({ enabled: false }).getConfig()).to.include({
      captureArguments: false,
      captureResults: false,
    });
  });

  it('leaves the frameworks named in disabledFrameworks unhooked', () => {
    const instrumentation = new ToolInstrumentation({
      enabled: false,
      disabledFrameworks: ['mcp', 'ai-sdk-v7'],
    });
    const names = instrumentation.getModuleDefinitions().map((module) => module.name);
    expect(names.some((name) => name.includes('@modelcontextprotocol'))).to.equal(false);
    expect(names).to.include.members(['@langchain/core', 'ai']);
    const before = registered().length;
    instrumentation.enable();
    expect(registered().length, 'no AI SDK v7 integration registered').to.equal(before);
    instrumentation.disable();
  });

  it('registers its AI SDK v7 integration once per enable, whatever getModuleDefinitions does', () => {
    const before = registered().length;
    const instrumentation = new ToolInstrumentation();
    instrumentation.getModuleDefinitions();
    expect(registered().length).to.equal(before + 1);
    instrumentation.disable();
    expect(registered().length).to.equal(before);
  });

  describe('two instances patching one method', () => {
    type Chained = { __original?: unknown; __wrapped?: boolean };
    // Loaded after the instances are enabled, so require-in-the-middle patches it.
    const load = createRequire(__filename);
    let tracing: TestTracing;
    before(() => {
      tracing = createTestTracing();
    });
    after(() => tracing.shutdown());

    /** The wrappers stacked on `StructuredTool.prototype.call`, and the function under them. */
    function chain(): { depth: number; bottom: unknown } {
      const proto = load('@langchain/core/tools').StructuredTool.prototype as { call: Chained };
      let fn: Chained = proto.call;
      let depth = 0;
      for (; fn.__wrapped === true; depth++) fn = fn.__original as Chained;
      return { depth, bottom: fn };
    }

    async function toolSpans(): Promise<number> {
      tracing.reset();
      const { tool } = load('@langchain/core/tools');
      const echo = tool(async (text: string) => text, { name: 'echo', description: 'echo' });
      expect(await echo.invoke('hi')).to.equal('hi');
      return tracing.spans().filter((span) => span.name === 'execute_tool echo').length;
    }

    for (const order of [
      ['a', 'b'],
      ['b', 'a'],
    ] as const) {
      it(`keeps one wrapper per instance through disable/enable, and restores the original (disable ${order.join(' then ')})`, async () => {
        const before = chain();
        const instances = { a: new ToolInstrumentation(), b: new ToolInstrumentation() };
        instances.a.setTracerProvider(tracing.provider);
        instances.b.setTracerProvider(tracing.provider);
        try {
          expect(chain().depth).to.equal(before.depth + 2);
          expect(await toolSpans(), 'one span per call with both enabled').to.equal(1);
          for (const name of ['a', 'b'] as const) {
            instances[name].disable();
            expect(await toolSpans(), `one span per call with only the other enabled`).to.equal(1);
            instances[name].enable();
            expect(chain().depth, `re-enabling ${name} reuses its wrapper`).to.equal(before.depth + 2);
            expect(await toolSpans()).to.equal(1);
          }
          instances[order[0]].disable();
          instances[order[1]].disable();
          expect(chain()).to.deep.equal(before);
          expect(await toolSpans()).to.equal(0);
        } finally {
          instances.a.disable();
          instances.b.disable();
        }
      });
    }
  });

  it('rejects an unknown framework name with the list of known ones', () => {
    expect(() => new ToolInstrumentation({ disabledFrameworks: ['langchian'] })).to.throw(
      TypeError,
      /unknown framework "langchian" in disabledFrameworks; known: mcp, langchain/,
    );
  });

  it('rejects option values that would not mean what they seem to, with a clear TypeError', () => {
    const bad: [unknown, RegExp][] = [
      [{ captureArguments: 'false' }, /captureArguments must be true or false, got the string "false"/],
      [{ captureResults: 1 }, /captureResults must be true or false, got number/],
      [
        { disabledFrameworks: 'mcp' },
        /disabledFrameworks must be an array of framework names, such as \['mcp'\], got the string "mcp"/,
      ],
      [{ disabledFrameworks: [1] }, /disabledFrameworks must be an array of framework names/],
      [{ attributesHook: 'x' }, /attributesHook must be a function/],
    ];
    for (const [config, message] of bad) {
      expect(() => new ToolInstrumentation(config as ToolInstrumentationConfig)).to.throw(TypeError, message);
      // instrumentTool takes the capture options too, checked the same way.
      if (!('disabledFrameworks' in (config as object))) {
        expect(() => instrumentTool(() => 1, 'tool', config as InstrumentToolOptions)).to.throw(
          TypeError,
          message,
        );
      }
    }
    const instrumentation = new ToolInstrumentation();
    expect(() => instrumentation.setConfig({ captureArguments: 'yes' as unknown as boolean })).to.throw(
      TypeError,
    );
    instrumentation.disable();
  });
});
