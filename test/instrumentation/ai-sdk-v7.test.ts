import { createRequire } from 'node:module';
import { SpanKind, SpanStatusCode, context, trace, type Span } from '@opentelemetry/api';
import { expect } from 'chai';
import { z } from 'zod';
import { ToolInstrumentation } from '../../src/instrumentation/tool-instrumentation';
import { refusedPort, startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import { createTestTracing, type TestTracing } from '../helpers/tracing';
import { callApi, errorOf } from '../helpers/tool-failures';

// ai@7 is installed under the alias `ai-v7` (ESM-only; Node 20.19+ can require it). The adapter
// does not depend on the package name: it registers a telemetry integration globally.
const load = createRequire(__filename);

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};
const REGISTRY = 'AI_SDK_TELEMETRY_INTEGRATIONS';

type AnyRecord = Record<string, any>;

function integrations(): unknown[] {
  return ((globalThis as AnyRecord)[REGISTRY] as unknown[] | undefined) ?? [];
}

describe('AI SDK v7 adapter (ai@7 generateText with MockLanguageModelV3, with and without @ai-sdk/otel)', () => {
  let tracing: TestTracing;
  let instrumentation: ToolInstrumentation;
  let server: FlakyServer;
  let ai: AnyRecord;
  let MockLanguageModelV3: new (options: AnyRecord) => unknown;
  let OpenTelemetry: new (options: AnyRecord) => object;
  let tools: AnyRecord;

  before(async () => {
    tracing = createTestTracing();
    instrumentation = new ToolInstrumentation();
    instrumentation.setTracerProvider(tracing.provider);
    server = await startFlakyServer();
    const closedPort = await refusedPort();
    ai = load('ai-v7');
    ({ MockLanguageModelV3 } = load('ai-v7/test'));
    ({ OpenTelemetry } = load('@ai-sdk/otel'));
    tools = {
      fetch_path: ai.tool({
        description: 'GETs a path on the test API',
        inputSchema: z.object({ path: z.string() }),
        execute: async ({ path }: { path: string }, { abortSignal }: { abortSignal?: AbortSignal }) =>
          callApi(server.url + path, abortSignal),
      }),
      fetch_closed: ai.tool({
        inputSchema: z.object({}),
        execute: async () => callApi(`http://127.0.0.1:${closedPort}/`),
      }),
      slow: ai.tool({
        inputSchema: z.object({}),
        execute: async () => callApi(`${server.url}/hang`, AbortSignal.timeout(50)),
      }),
      adk_contract: ai.tool({
        inputSchema: z.object({}),
        execute: async () => ({ success: false, error: { status: 503, message: 'upstream unavailable' } }),
      }),
      fine: ai.tool({ inputSchema: z.object({}), execute: async () => ({ temperature: 21 }) }),
    };
  });
  afterEach(() => tracing.reset());
  after(async () => {
    instrumentation.disable();
    await server.close();
    await tracing.shutdown();
  });

  function modelCalling(toolName: string, input: unknown) {
    let step = 0;
    return new MockLanguageModelV3({
      doGenerate: async () => ({
        ...(step++ === 0
          ? {
              content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) }],
              finishReason: { unified: 'tool-calls', raw: undefined },
            }
          : { content: [{ type: 'text', text: 'done' }], finishReason: { unified: 'stop', raw: undefined } }),
        usage,
        warnings: [],
      }),
    });
  }

  async function generate(toolName: string, input: unknown): Promise<{ value: AnyRecord; agent: Span }> {
    const agent = tracing.tracer.startSpan('agent');
    const value = await context.with(trace.setSpan(context.active(), agent), () =>
      ai.generateText({
        model: modelCalling(toolName, input),
        prompt: 'go',
        tools,
        stopWhen: ai.isStepCount(3),
      }),
    );
    agent.end();
    await new Promise((resolve) => setImmediate(resolve));
    return { value, agent };
  }

  function toolSpan(name: string, agent: Span) {
    const span = tracing.span(`execute_tool ${name}`);
    expect(span.kind).to.equal(SpanKind.INTERNAL);
    expect(span.attributes).to.include({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': name,
      'gen_ai.tool.call.id': 'call-1',
      'gen_ai.tool.type': 'function',
    });
    expect(span.parentSpanContext?.spanId).to.equal(agent.spanContext().spanId);
    return span;
  }

  describe('without @ai-sdk/otel: the adapter makes the span', () => {
    for (const [path, type, kind] of [
      ['/500', '500', 'transient'],
      ['/429?retryAfter=1', '429', 'rate_limit'],
      ['/429', '429', 'quota'],
      ['/401', '401', 'auth'],
      ['/404', '404', 'permanent'],
    ] as const) {
      it(`a real ${path} answer is ${kind}, while the SDK returns a tool-error part`, async () => {
        const { value, agent } = await generate('fetch_path', { path });
        const toolError = value.steps[0].content.find((part: AnyRecord) => part.type === 'tool-error');
        expect(toolError?.error?.message).to.equal(`GET ${path.split('?')[0]} failed`);
        const span = toolSpan('fetch_path', agent);
        expect(errorOf(span)).to.deep.equal({ type, kind, executed: true, status: SpanStatusCode.ERROR });
        expect(span.events.filter((e) => e.name === 'exception')).to.have.length(1);
      });
    }

    it('classifies a refused port and an AbortSignal.timeout', async () => {
      const closed = await generate('fetch_closed', {});
      expect(errorOf(toolSpan('fetch_closed', closed.agent))).to.include({
        type: 'ECONNREFUSED',
        kind: 'network',
      });
      tracing.reset();
      const slow = await generate('slow', {});
      expect(errorOf(toolSpan('slow', slow.agent))).to.include({ type: 'timeout', kind: 'timeout' });
    });

    it('classifies a returned error result from the output onToolExecutionEnd brings', async () => {
      const { agent } = await generate('adk_contract', {});
      expect(errorOf(toolSpan('adk_contract', agent))).to.include({ type: '503', kind: 'transient' });
    });

    it('leaves a successful call unmarked', async () => {
      const { agent } = await generate('fine', {});
      const span = toolSpan('fine', agent);
      expect(span.status.code).to.equal(SpanStatusCode.UNSET);
      expect(span.attributes['error.type']).to.equal(undefined);
    });

    it('records an unknown tool and a Zod input error, neither executed', async () => {
      const unknown = await generate('nope', {});
      expect(errorOf(toolSpan('nope', unknown.agent))).to.deep.equal({
        type: 'NoSuchToolError',
        kind: 'unknown_tool',
        executed: false,
        status: SpanStatusCode.ERROR,
      });
      tracing.reset();
      const invalid = await generate('fetch_path', { path: 42 });
      expect(errorOf(toolSpan('fetch_path', invalid.agent))).to.deep.equal({
        type: 'InvalidToolInputError',
        kind: 'invalid_input',
        executed: false,
        status: SpanStatusCode.ERROR,
      });
    });
  });

  describe('with @ai-sdk/otel registered: its execute_tool span is enriched', () => {
    let otel: object;
    before(() => {
      otel = new OpenTelemetry({ tracer: tracing.tracer });
      ai.registerTelemetry(otel);
    });
    after(() => {
      const list = integrations();
      list.splice(list.indexOf(otel), 1);
    });

    it('one execute_tool span, with error.type from the real error', async () => {
      await generate('fetch_path', { path: '/500' });
      const toolSpans = tracing.spans().filter((s) => s.name.startsWith('execute_tool'));
      expect(toolSpans).to.have.length(1);
      const span = toolSpans[0]!;
      // The span is @ai-sdk/otel's: only it records the duration attribute.
      expect(span.attributes['gen_ai.execute_tool.duration']).to.be.a('number');
      expect(errorOf(span)).to.deep.equal({
        type: '500',
        kind: 'transient',
        executed: true,
        status: SpanStatusCode.ERROR,
      });
      // @ai-sdk/otel records the exception itself; the wrapper adds none.
      expect(span.events.filter((e) => e.name === 'exception')).to.have.length(1);
    });

    it('classifies a returned error result before @ai-sdk/otel ends its span', async () => {
      await generate('adk_contract', {});
      const span = tracing.span('execute_tool adk_contract');
      expect(span.attributes['gen_ai.execute_tool.duration']).to.be.a('number');
      expect(errorOf(span)).to.include({ type: '503', kind: 'transient', status: SpanStatusCode.ERROR });
    });

    it('stays innermost when re-enabled after @ai-sdk/otel was registered', async () => {
      instrumentation.disable();
      instrumentation.enable();
      expect(integrations()[0]).not.to.equal(otel);
      await generate('fetch_path', { path: '/401' });
      expect(tracing.spans().filter((s) => s.name.startsWith('execute_tool'))).to.have.length(1);
      expect(errorOf(tracing.span('execute_tool fetch_path'))).to.include({ type: '401' });
    });
  });

  it('disable removes the integration; enable adds it once', async () => {
    const count = () => integrations().length;
    const before = count();
    instrumentation.disable();
    expect(count()).to.equal(before - 1);
    await generate('fetch_path', { path: '/500' });
    expect(tracing.spans().map((s) => s.name)).to.deep.equal(['agent']);
    instrumentation.enable();
    instrumentation.enable();
    expect(count()).to.equal(before);
  });
});
