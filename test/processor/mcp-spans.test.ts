import { createRequire } from 'node:module';
import { SpanKind, SpanStatusCode, type Attributes, type Span } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { McpInstrumentation } from '@traceloop/instrumentation-mcp';
import { expect } from 'chai';
import { ToolErrorSpanProcessor } from '../../src';
import { ensureContextManager } from '../helpers/tracing';

/**
 * Other tools' MCP `tools/call` spans, enriched by the processor alone. OpenLLMetry's come from
 * the real `@traceloop/instrumentation-mcp` on a real client and server. Sentry's and dd-trace's
 * integrations do not install here (they need their own SDKs and agents), so their spans are
 * built with the names and attributes their sources set: Sentry `packages/core/src/integrations/
 * mcp-server` (`tools/call {tool}`, `mcp.tool.name`, `mcp.tool.result.is_error`, status ERROR
 * "Tool execution failed"), dd-trace `packages/datadog-plugin-modelcontextprotocol-sdk`
 * (`modelcontextprotocol-sdk.callTool`).
 */
describe('ToolErrorSpanProcessor: MCP tool spans other instrumentations make', () => {
  let exporter: InMemorySpanExporter;
  let provider: NodeTracerProvider;

  beforeEach(() => {
    ensureContextManager();
    exporter = new InMemorySpanExporter();
    provider = new NodeTracerProvider({
      spanProcessors: [new ToolErrorSpanProcessor(), new SimpleSpanProcessor(exporter)],
    });
  });
  afterEach(() => provider.shutdown());

  function endSpan(
    name: string,
    kind: SpanKind,
    attributes: Attributes,
    body: (span: Span) => void,
  ): ReadableSpan {
    const span = provider.getTracer('other').startSpan(name, { kind, attributes });
    body(span);
    span.end();
    return exporter.getFinishedSpans().at(-1)!;
  }

  it("Sentry's tools/call span with mcp.tool.result.is_error: tool_error, the status in its text kept, gen_ai.tool.name filled", () => {
    const span = endSpan(
      'tools/call get_weather',
      SpanKind.SERVER,
      { 'mcp.method.name': 'tools/call', 'mcp.tool.name': 'get_weather', 'sentry.op': 'mcp.server' },
      (s) => {
        s.setAttributes({
          'mcp.tool.result.is_error': true,
          'mcp.tool.result.content': 'upstream answered HTTP 503',
        });
        s.setStatus({ code: SpanStatusCode.ERROR, message: 'Tool execution failed' });
      },
    );
    expect(span.attributes).to.include({
      'gen_ai.tool.name': 'get_weather',
      'error.type': 'tool_error',
      'tool.error_detail_type': '503',
      'tool.error_kind': 'transient',
      'tool.error_executed': true,
    });
    expect(span.status.code).to.equal(SpanStatusCode.ERROR);
  });

  it('a span with only mcp.method.name=tools/call and a successful result stays unmarked', () => {
    const span = endSpan('tools/call ok', SpanKind.CLIENT, { 'mcp.method.name': 'tools/call' }, (s) =>
      s.setAttribute('mcp.tool.result.is_error', false),
    );
    expect(span.attributes['gen_ai.tool.name']).to.equal('ok');
    expect(span.attributes['error.type']).to.equal(undefined);
  });

  it('a span with only mcp.method.name=tools/call that threw: the thrown error rule (its code)', () => {
    const span = endSpan('tools/call slow', SpanKind.CLIENT, { 'mcp.method.name': 'tools/call' }, (s) => {
      s.recordException(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }),
      );
      s.setStatus({ code: SpanStatusCode.ERROR });
    });
    expect(span.attributes).to.include({ 'error.type': 'ECONNREFUSED', 'tool.error_kind': 'network' });
  });

  it("dd-trace's modelcontextprotocol-sdk.callTool span that threw a timeout", () => {
    const span = endSpan(
      'modelcontextprotocol-sdk.callTool',
      SpanKind.CLIENT,
      { component: 'modelcontextprotocol-sdk', 'resource.name': 'search' },
      (s) => {
        s.recordException(Object.assign(new Error('Request timed out'), { name: 'McpError', code: -32001 }));
        s.setStatus({ code: SpanStatusCode.ERROR });
      },
    );
    expect(span.attributes).to.include({
      'gen_ai.tool.name': 'search',
      'error.type': 'timeout',
      'tool.error_kind': 'timeout',
    });
  });

  it("OpenLLMetry's {tool}.tool span from @traceloop/instrumentation-mcp on a real client: tool_error with the 503 kept", async () => {
    const instrumentation = new McpInstrumentation();
    instrumentation.setTracerProvider(provider);
    const load = createRequire(__filename);
    const clientModule = load('@modelcontextprotocol/sdk/client/index.js');
    const { McpServer } = load('@modelcontextprotocol/sdk/server/mcp.js');
    const { InMemoryTransport } = load('@modelcontextprotocol/sdk/inMemory.js');
    // A client class of its own, so this patch leaves the shared module's prototype alone.
    const Client: new (...args: unknown[]) => any = class extends clientModule.Client {};
    // Its typings declare no parameter; 0.27.0's code takes the module to patch.
    (instrumentation as unknown as { manuallyInstrument(module: unknown): void }).manuallyInstrument({
      Client,
    });
    const server = new McpServer({ name: 's', version: '1.0.0' });
    server.registerTool('busy', {}, async () => ({
      isError: true,
      content: [{ type: 'text', text: 'upstream answered HTTP 503' }],
    }));
    const client = new Client({ name: 'c', version: '1.0.0' });
    const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
    await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
    try {
      const result = await client.callTool({ name: 'busy', arguments: {} });
      expect(result.isError).to.equal(true);
    } finally {
      await client.close();
      await server.close();
      instrumentation.disable();
    }
    const span = exporter.getFinishedSpans().find((s) => s.name === 'busy.tool');
    expect(span, `spans: ${exporter.getFinishedSpans().map((s) => s.name)}`).to.not.equal(undefined);
    expect(span!.attributes).to.include({
      'gen_ai.tool.name': 'busy',
      'error.type': 'tool_error',
      'tool.error_detail_type': '503',
      'tool.error_kind': 'transient',
    });
  });
});
