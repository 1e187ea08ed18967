import { createRequire } from 'node:module';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type { Client as ClientType } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpServer as McpServerType } from '@modelcontextprotocol/sdk/server/mcp.js';
import { expect } from 'chai';
import { z } from 'zod';
import { ToolInstrumentation } from '../../src/instrumentation/tool-instrumentation';
import { refusedPort, startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import { createTestTracing, type TestTracing } from '../helpers/tracing';
import { callApi, errorOf } from '../helpers/tool-failures';

// Loaded after the instrumentation is enabled, so require-in-the-middle patches them.
const load = createRequire(__filename);

describe('MCP adapter (@modelcontextprotocol/sdk over InMemoryTransport)', () => {
  let tracing: TestTracing;
  let instrumentation: ToolInstrumentation;
  let server: FlakyServer;
  let client: ClientType;
  let mcpServer: McpServerType;
  let closedPort: number;
  let Client: typeof ClientType;

  before(async () => {
    tracing = createTestTracing();
    instrumentation = new ToolInstrumentation();
    instrumentation.setTracerProvider(tracing.provider);
    server = await startFlakyServer();
    closedPort = await refusedPort();
    ({ Client } = load('@modelcontextprotocol/sdk/client/index.js') as { Client: typeof ClientType });
    const { McpServer } = load('@modelcontextprotocol/sdk/server/mcp.js') as {
      McpServer: typeof McpServerType;
    };
    const { InMemoryTransport } = load('@modelcontextprotocol/sdk/inMemory.js');

    mcpServer = new McpServer({ name: 'test-server', version: '1.0.0' });
    mcpServer.registerTool(
      'fetch_path',
      { description: 'GETs a path on the test API', inputSchema: { path: z.string() } },
      async ({ path }, extra) => ({
        content: [{ type: 'text', text: await callApi(server.url + path, extra.signal) }],
      }),
    );
    mcpServer.registerTool('fetch_closed', { description: 'GETs a closed port' }, async () => ({
      content: [{ type: 'text', text: await callApi(`http://127.0.0.1:${closedPort}/`) }],
    }));
    mcpServer.registerTool('locked_file', { description: 'Reports an error result' }, async () => ({
      isError: true,
      content: [{ type: 'text', text: 'the file is locked by another process' }],
    }));
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    client = new Client({ name: 'test-client', version: '1.0.0' });
    await Promise.all([mcpServer.connect(serverTransport), client.connect(clientTransport)]);
  });
  afterEach(() => tracing.reset());
  after(async () => {
    await client.close();
    await mcpServer.close();
    instrumentation.disable();
    await server.close();
    await tracing.shutdown();
  });

  /** Calls the tool under an `agent` span and returns the result (or error) and the tool span. */
  async function call(name: string, args: Record<string, unknown> = {}, options?: { timeout: number }) {
    const agent = tracing.tracer.startSpan('agent');
    const outcome = await context
      .with(trace.setSpan(context.active(), agent), () =>
        client.callTool({ name, arguments: args }, undefined, options),
      )
      .then(
        (result) => ({ result, error: undefined }),
        (error: unknown) => ({ result: undefined, error }),
      );
    agent.end();
    await new Promise((resolve) => setTimeout(resolve, 5));
    const span = tracing.span(`execute_tool ${name}`);
    expect(span.kind).to.equal(SpanKind.INTERNAL);
    expect(span.parentSpanContext?.spanId).to.equal(agent.spanContext().spanId);
    expect(span.attributes['gen_ai.operation.name']).to.equal('execute_tool');
    expect(span.attributes['gen_ai.tool.name']).to.equal(name);
    return { ...outcome, span };
  }

  it('one span per call with the real server-side HTTP 500, although the client only gets isError text', async () => {
    const { result, span } = await call('fetch_path', { path: '/500' });
    expect(result?.isError).to.equal(true);
    expect(errorOf(span)).to.deep.equal({
      type: '500',
      kind: 'transient',
      executed: true,
      status: SpanStatusCode.ERROR,
    });
    // The client span is the one span: the in-process server handler enriched it.
    expect(tracing.spans().filter((s) => s.name.startsWith('execute_tool'))).to.have.length(1);
    expect(span.attributes['gen_ai.tool.type']).to.equal('extension');
    expect(span.attributes['gen_ai.tool.description']).to.equal('GETs a path on the test API');
    expect(span.attributes['gen_ai.tool.call.id']).to.be.a('string');
    expect(span.events.filter((e) => e.name === 'exception')).to.have.length(0);
  });

  for (const [path, type, kind] of [
    ['/429?retryAfter=1', '429', 'rate_limit'],
    ['/429', '429', 'quota'],
    ['/401', '401', 'auth'],
    ['/404', '404', 'permanent'],
    ['/503', '503', 'transient'],
  ] as const) {
    it(`classifies ${path} from the server handler as ${kind}`, async () => {
      const { span } = await call('fetch_path', { path });
      expect(errorOf(span)).to.include({ type, kind, status: SpanStatusCode.ERROR });
    });
  }

  it('classifies a refused connection in the handler as network', async () => {
    const { span } = await call('fetch_closed');
    expect(errorOf(span)).to.include({ type: 'ECONNREFUSED', kind: 'network' });
  });

  it('marks a returned isError result as tool_error', async () => {
    const { result, span } = await call('locked_file');
    expect(result?.isError).to.equal(true);
    expect(errorOf(span)).to.deep.equal({
      type: 'tool_error',
      kind: 'tool_error',
      executed: true,
      status: SpanStatusCode.ERROR,
    });
  });

  it('classifies an unknown tool from the MCP -32602 text as unknown_tool, not executed', async () => {
    const { result, span } = await call('no_such_tool');
    expect(result?.isError).to.equal(true);
    expect(errorOf(span)).to.deep.equal({
      type: '-32602',
      kind: 'unknown_tool',
      executed: false,
      status: SpanStatusCode.ERROR,
    });
  });

  it('classifies a Zod input error as invalid_input, not executed', async () => {
    const { span } = await call('fetch_path', { path: 42 });
    expect(errorOf(span)).to.deep.equal({
      type: '-32602',
      kind: 'invalid_input',
      executed: false,
      status: SpanStatusCode.ERROR,
    });
  });

  it('classifies the client-side request timeout (McpError -32001) as timeout', async () => {
    const { error, span } = await call('fetch_path', { path: '/hang' }, { timeout: 50 });
    expect((error as { code?: number }).code).to.equal(-32001);
    expect(errorOf(span)).to.deep.equal({
      type: 'timeout',
      kind: 'timeout',
      executed: true,
      status: SpanStatusCode.ERROR,
    });
    expect(span.events.filter((e) => e.name === 'exception')).to.have.length(1);
  });

  it('traces the server alone when the client is not patched (a raw tools/call request)', async () => {
    const { CallToolResultSchema } = load('@modelcontextprotocol/sdk/types.js');
    const result = await client.request(
      { method: 'tools/call', params: { name: 'fetch_path', arguments: { path: '/401' } } },
      CallToolResultSchema,
    );
    expect(result.isError).to.equal(true);
    const span = tracing.span('execute_tool fetch_path');
    expect(span.attributes['gen_ai.tool.type']).to.equal('function');
    expect(span.attributes['gen_ai.tool.call.id']).to.be.a('string');
    expect(errorOf(span)).to.include({ type: '401', kind: 'auth' });
    expect(span.events.filter((e) => e.name === 'exception')).to.have.length(1);
  });

  it('unpatches on disable and patches once again on enable', async () => {
    const proto = Client.prototype as unknown as { callTool: { __original?: unknown; __wrapped?: boolean } };
    expect(proto.callTool.__wrapped).to.equal(true);
    const original = proto.callTool.__original;
    instrumentation.disable();
    expect(proto.callTool).to.equal(original);
    await client.callTool({ name: 'locked_file', arguments: {} });
    expect(tracing.spans()).to.have.length(0);
    instrumentation.enable();
    instrumentation.enable();
    expect(proto.callTool.__original).to.equal(original);
    await client.callTool({ name: 'locked_file', arguments: {} });
    expect(tracing.spans().filter((s) => s.name === 'execute_tool locked_file')).to.have.length(1);
  });
});
