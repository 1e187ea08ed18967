import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { expect } from 'chai';
import * as semver from 'semver';
import { ToolInstrumentation } from '../../src/instrumentation/tool-instrumentation';
import { startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import { createTestTracing, type TestTracing } from '../helpers/tracing';
import { patchAlias } from '../helpers/patch-alias';
import { errorOf } from '../helpers/tool-failures';

// @ai-sdk/mcp 2.x (with ai 7) is installed under its name; 1.x (with ai 6) under the alias
// `ai-sdk-mcp-v1`, and the lowest of each line (1.0.0, 2.0.0) under `ai-sdk-mcp-v1-lowest` and
// `ai-sdk-mcp-lowest`. require-in-the-middle does not hook an alias: the adapter's patch is applied
// to those copies' exports by hand.
const load = createRequire(__filename);

type Any = Record<string, any>;

const { modelCalling } = load('../pipeline/apps/mock-language-model.cjs') as Any;

/**
 * A real MCP server over Streamable HTTP on 127.0.0.1, in its own process (fixtures/
 * mcp-http-server.cjs), so that this file loads no MCP SDK module the MCP adapter's suite patches.
 */
async function startMcpServer(upstreamUrl: string) {
  const child = spawn(process.execPath, [join(__dirname, 'fixtures', 'mcp-http-server.cjs')], {
    env: { ...process.env, UPSTREAM_URL: upstreamUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  return {
    url: line,
    close: async () => {
      child.kill();
      await once(child, 'exit');
    },
  };
}

describe('@ai-sdk/mcp adapter (createMCPClient against a real MCP server over Streamable HTTP)', () => {
  let tracing: TestTracing;
  let instrumentation: ToolInstrumentation;
  let flaky: FlakyServer;
  let mcpServer: Awaited<ReturnType<typeof startMcpServer>>;

  before(async () => {
    tracing = createTestTracing();
    instrumentation = new ToolInstrumentation({ disabledFrameworks: ['mcp'] });
    instrumentation.setTracerProvider(tracing.provider);
    propagation.setGlobalPropagator(new W3CTraceContextPropagator());
    flaky = await startFlakyServer();
    mcpServer = await startMcpServer(`${flaky.url}/503`);
  });
  afterEach(() => tracing.reset());
  after(async () => {
    instrumentation.disable();
    propagation.disable();
    await mcpServer.close();
    await flaky.close();
    await tracing.shutdown();
  });

  /** The adapter's patch applied by hand to the copy installed as `alias`. */
  const patchedByHand = (alias: string) =>
    patchAlias(instrumentation, alias, '@ai-sdk/mcp', load(alias)) as Any;

  const clientSpan = (name: string) => {
    const span = tracing.span(`tools/call ${name}`);
    expect(span.kind).to.equal(SpanKind.CLIENT);
    expect(span.attributes).to.include({
      'mcp.method.name': 'tools/call',
      'gen_ai.tool.name': name,
      'gen_ai.operation.name': 'execute_tool',
      'network.transport': 'tcp',
    });
    return span;
  };

  // The third item: whether the client keeps the protocol version it agreed on (from 1.0.42 on;
  // the version matrix runs the first copy on older releases too).
  for (const [title, loadMcp, knowsProtocolVersion] of [
    [
      '@ai-sdk/mcp as installed (hooked by name)',
      () => load('@ai-sdk/mcp') as Any,
      semver.gte((load('@ai-sdk/mcp/package.json') as { version: string }).version, '1.0.42'),
    ],
    ['2.0.0, the lowest 2.x', () => patchedByHand('ai-sdk-mcp-lowest'), true],
    ['1.x latest', () => patchedByHand('ai-sdk-mcp-v1'), true],
    ['1.0.0, the lowest 1.x', () => patchedByHand('ai-sdk-mcp-v1-lowest'), false],
  ] as const) {
    describe(`${title}: the tools of client.tools() called directly`, () => {
      let client: Any;
      let tools: Any;
      before(async () => {
        const { createMCPClient } = loadMcp();
        client = await createMCPClient({ transport: { type: 'http', url: mcpServer.url } });
        tools = await client.tools();
      });
      after(() => client.close());

      const run = (name: string) => tools[name].execute({}, { toolCallId: `call-${name}`, messages: [] });

      it('an isError result: error.type tool_error, the result returned unchanged', async () => {
        const result = await run('locked');
        expect(result).to.deep.include({ isError: true });
        expect(result.content[0].text).to.equal('the file is locked by another process');
        const span = clientSpan('locked');
        expect(errorOf(span)).to.deep.equal({
          type: 'tool_error',
          kind: 'tool_error',
          executed: true,
          status: SpanStatusCode.ERROR,
        });
        expect(span.attributes['mcp.session.id']).to.be.a('string');
        expect(span.attributes['mcp.protocol.version']).to.be.a(
          knowsProtocolVersion ? 'string' : 'undefined',
        );
      });

      it('sends the trace context in params._meta', async () => {
        const result = await run('meta');
        const { traceId, spanId } = clientSpan('meta').spanContext();
        expect(JSON.parse(result.content[0].text).traceparent).to.equal(`00-${traceId}-${spanId}-01`);
      });

      it("a server tool that got a 503: tool_error, the status from the server's text in tool.error_detail_type", async () => {
        const result = await run('upstream');
        expect(result.isError).to.equal(true);
        const span = clientSpan('upstream');
        expect(span.attributes).to.include({
          'error.type': 'tool_error',
          'tool.error_detail_type': '503',
          'tool.error_kind': 'transient',
        });
        expect(span.status.code).to.equal(SpanStatusCode.ERROR);
      });

      it('a dropped connection: the thrown error is the one the app gets, and the span says network', async () => {
        const thrown = await run('drop').then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(thrown).to.be.instanceOf(Error);
        const span = clientSpan('drop');
        expect(span.status.code).to.equal(SpanStatusCode.ERROR);
        expect(span.attributes['tool.error_kind']).to.equal('network');
        expect(span.events.filter((e) => e.name === 'exception')).to.have.length(1);
      });

      it('an unknown tool called through client.callTool: unknown_tool, not executed', async () => {
        const result = await client.callTool({ name: 'missing', arguments: {}, args: {} });
        expect(result.isError).to.equal(true);
        const span = clientSpan('missing');
        expect(span.attributes).to.include({ 'error.type': 'tool_error', 'tool.error_kind': 'unknown_tool' });
        expect(span.attributes['tool.error_executed']).to.equal(false);
      });

      it('a call that works: no error attributes', async () => {
        const result = await run('ok');
        expect(result.content[0].text).to.equal('fine');
        const span = clientSpan('ok');
        expect(span.status.code).to.equal(SpanStatusCode.UNSET);
        expect(span.attributes).not.to.have.property('error.type');
      });
    });
  }

  describe('generateText running @ai-sdk/mcp tools: one span per call, the AI SDK one', () => {
    it('ai 7 with @ai-sdk/otel: its execute_tool span gets the MCP attributes and the failure; no tools/call span', async () => {
      const ai = load('ai-v7');
      const { MockLanguageModelV3 } = load('ai-v7/test');
      const { OpenTelemetry } = load('@ai-sdk/otel');
      const { createMCPClient } = load('@ai-sdk/mcp');
      const otel = new OpenTelemetry({ tracer: tracing.tracer });
      ai.registerTelemetry(otel);
      const client = await createMCPClient({ transport: { type: 'http', url: mcpServer.url } });
      try {
        const result = await ai.generateText({
          model: modelCalling(MockLanguageModelV3, 'locked'),
          prompt: 'go',
          tools: await client.tools(),
          stopWhen: ai.isStepCount(3),
        });
        expect(result.text).to.equal('done');
      } finally {
        const list = (globalThis as Any).AI_SDK_TELEMETRY_INTEGRATIONS as unknown[];
        list.splice(list.indexOf(otel), 1);
        await client.close();
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(tracing.spans().filter((s) => s.name.startsWith('tools/call'))).to.deep.equal([]);
      const span = tracing.span('execute_tool locked');
      // The span is @ai-sdk/otel's: only it records the duration attribute.
      expect(span.attributes['gen_ai.execute_tool.duration']).to.be.a('number');
      expect(span.attributes).to.include({ 'mcp.method.name': 'tools/call', 'network.transport': 'tcp' });
      expect(errorOf(span)).to.deep.equal({
        type: 'tool_error',
        kind: 'tool_error',
        executed: true,
        status: SpanStatusCode.ERROR,
      });
    });

    it('ai 6 with telemetry on: its ai.toolCall span gets the MCP attributes and the failure; no tools/call span', async () => {
      const ai = load('ai');
      const { MockLanguageModelV3 } = load('ai/test');
      const { createMCPClient } = patchedByHand('ai-sdk-mcp-v1');
      const client = await createMCPClient({ transport: { type: 'http', url: mcpServer.url } });
      const agent = tracing.tracer.startSpan('agent');
      try {
        const tools = await client.tools();
        await context.with(trace.setSpan(context.active(), agent), () =>
          ai.generateText({
            model: modelCalling(MockLanguageModelV3, 'upstream') as never,
            prompt: 'go',
            tools,
            stopWhen: ai.stepCountIs(3),
            experimental_telemetry: { isEnabled: true, tracer: tracing.tracer },
          }),
        );
      } finally {
        agent.end();
        await client.close();
      }
      const names = tracing.spans().map((s) => s.name);
      expect(names.filter((n) => n.startsWith('tools/call') || n.startsWith('execute_tool'))).to.deep.equal(
        [],
      );
      const span = tracing.span('ai.toolCall');
      expect(span.attributes).to.include({ 'mcp.method.name': 'tools/call', 'gen_ai.tool.name': 'upstream' });
      expect(errorOf(span)).to.deep.include({ kind: 'transient', status: SpanStatusCode.ERROR });
      expect(span.attributes['error.type']).to.equal('503');
    });
  });

  it('disable: createMCPClient clients call through, no span', async () => {
    const { createMCPClient } = load('@ai-sdk/mcp');
    const client = await createMCPClient({ transport: { type: 'http', url: mcpServer.url } });
    instrumentation.disable();
    try {
      const result = await client.callTool({ name: 'locked', arguments: {} });
      expect(result.isError).to.equal(true);
      expect(tracing.spans()).to.deep.equal([]);
    } finally {
      instrumentation.enable();
      await client.close();
    }
  });
});
