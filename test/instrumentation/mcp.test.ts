import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { z } from 'zod';
import { ToolInstrumentation } from '../../src/instrumentation/tool-instrumentation';
import {
  describeAdapterConformance,
  type ConformanceInput,
  type ConformanceTool,
} from '../helpers/adapter-conformance';
import { startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import { installedVersion } from '../helpers/installed-version';
import { patchAlias } from '../helpers/patch-alias';
import { createTestTracing, type TestTracing } from '../helpers/tracing';
import { callApi, callApiWithOwnDeadline, errorOf, executedFailure } from '../helpers/tool-failures';

// Loaded after the instrumentation is enabled, so require-in-the-middle patches them.
const load = createRequire(__filename);

/**
 * Another test file may have loaded the 1.x SDK before this one enables the instrumentation.
 * require-in-the-middle patches a cached module only when it is required again, and McpServer's
 * `server/mcp.js`, once cached, never requires `server/index.js` (the SERVER span's
 * `Server.setRequestHandler`) again: require each file the adapter patches, after enabling.
 */
function loadPatchedV1Files(): void {
  for (const file of ['client/index.js', 'server/index.js', 'server/mcp.js'])
    load(`@modelcontextprotocol/sdk/${file}`);
}

type Any = any;

interface Sdk {
  label: string;
  /** Client and server connected over the SDK's InMemoryTransport, with the test tools registered. */
  connect(
    api: FlakyServer,
    instrumentation: ToolInstrumentation,
  ): Promise<{ client: Any; server: Any; close: () => Promise<void> }>;
  /** How the SDK answers an unknown tool: an isError result (1.x McpServer) or a JSON-RPC error (2.x). */
  unknownTool: 'result' | 'json-rpc';
  /** The tool's input schema from a zod shape, as this SDK's `registerTool` takes it. */
  inputSchema(shape: Any): Any;
  /** `callTool` with request options: 1.x `(params, resultSchema, options)`, 2.x `(params, options)`. */
  callToolWith(client: Any, params: Any, options: Any): Promise<Any>;
}

const failingText = { isError: true, content: [{ type: 'text', text: 'upstream answered HTTP 503' }] };

function registerTools(server: Any, api: FlakyServer, inputSchema: (shape: Any) => Any): void {
  server.registerTool(
    'fetch_path',
    { description: 'GETs a path on the test API', inputSchema: inputSchema({ path: z.string() }) },
    async ({ path }: { path: string }) => ({
      content: [{ type: 'text', text: await callApi(api.url + path) }],
    }),
  );
  // Its client has a deadline of its own; the request's abort signal (1.x `extra.signal`, 2.x
  // `ctx.mcpReq.signal`) cancels it too.
  server.registerTool(
    'slow_api',
    { description: 'Calls an API that never answers', inputSchema: inputSchema({ deadlineMs: z.number() }) },
    async ({ deadlineMs }: { deadlineMs: number }, extra: Any) => ({
      content: [
        {
          type: 'text',
          text: await callApiWithOwnDeadline(
            `${api.url}/hang`,
            deadlineMs,
            extra.signal ?? extra.mcpReq?.signal,
          ),
        },
      ],
    }),
  );
  server.registerTool('busy', { description: 'Returns an error result' }, async () => failingText);
  server.registerTool('ok', { description: 'Succeeds' }, async () => ({
    content: [{ type: 'text', text: 'fine' }],
  }));
}

const SDKS: Sdk[] = [
  {
    label: '@modelcontextprotocol/sdk 1.x latest',
    unknownTool: 'result',
    inputSchema: (shape) => shape,
    callToolWith: (client, params, options) => client.callTool(params, undefined, options),
    async connect(api) {
      const { Client } = load('@modelcontextprotocol/sdk/client/index.js');
      const { McpServer } = load('@modelcontextprotocol/sdk/server/mcp.js');
      const { InMemoryTransport } = load('@modelcontextprotocol/sdk/inMemory.js');
      const server = new McpServer({ name: 'test-server', version: '1.0.0' });
      registerTools(server, api, (shape) => shape);
      return linked(new Client({ name: 'test-client', version: '1.0.0' }), server, InMemoryTransport);
    },
  },
  {
    label: '@modelcontextprotocol/client and /server 2.x latest',
    unknownTool: 'json-rpc',
    inputSchema: (shape) => z.object(shape),
    callToolWith: (client, params, options) => client.callTool(params, options),
    connect: (api) =>
      connectV2(api, load('@modelcontextprotocol/client'), load('@modelcontextprotocol/server')),
  },
  {
    label: '@modelcontextprotocol/client and /server 2.0.0, the lowest supported 2.x',
    unknownTool: 'json-rpc',
    inputSchema: (shape) => z.object(shape),
    callToolWith: (client, params, options) => client.callTool(params, options),
    connect: (api, instrumentation) =>
      connectV2(
        api,
        patchAlias(
          instrumentation,
          'mcp-client-lowest',
          '@modelcontextprotocol/client',
          load('mcp-client-lowest'),
        ),
        patchAlias(
          instrumentation,
          'mcp-server-lowest',
          '@modelcontextprotocol/server',
          load('mcp-server-lowest'),
        ),
      ),
  },
];

/** A 2.x client and McpServer (the main exports of `/client` and `/server`), with the test tools. */
async function connectV2(api: FlakyServer, { Client }: Any, { McpServer, InMemoryTransport }: Any) {
  const server = new McpServer({ name: 'test-server', version: '1.0.0' });
  registerTools(server, api, (shape) => z.object(shape));
  // MCP 2026-07-28: a result that asks the client for input is no error.
  server.registerTool('needs_input', { description: 'Asks for a confirmation' }, async () => ({
    resultType: 'input_required',
    inputRequests: {
      confirm: {
        method: 'elicitation/create',
        params: { message: 'Sure?', requestedSchema: { type: 'object', properties: {} } },
      },
    },
  }));
  return linked(new Client({ name: 'test-client', version: '1.0.0' }), server, InMemoryTransport);
}

async function linked(client: Any, server: Any, InMemoryTransport: Any) {
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return {
    client,
    server,
    close: async () => {
      await client.close();
      await server.close();
    },
  };
}

describe('MCP adapter: tools/call client and server spans (InMemoryTransport)', () => {
  let tracing: TestTracing;
  let instrumentation: ToolInstrumentation;
  let api: FlakyServer;

  before(async () => {
    tracing = createTestTracing();
    propagation.setGlobalPropagator(
      new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
    );
    instrumentation = new ToolInstrumentation();
    instrumentation.setTracerProvider(tracing.provider);
    loadPatchedV1Files();
    api = await startFlakyServer();
  });
  afterEach(() => tracing.reset());
  after(async () => {
    instrumentation.disable();
    propagation.disable();
    await api.close();
    await tracing.shutdown();
  });

  /** Client and server span of one call, the server span a child of the client span. */
  function spansOf(name: string): { client: ReadableSpan; server: ReadableSpan | undefined } {
    const spans = tracing.spans().filter((s) => s.name === `tools/call ${name}`);
    const client = spans.find((s) => s.kind === SpanKind.CLIENT);
    expect(client, `client span among ${tracing.spans().map((s) => s.name)}`).to.not.equal(undefined);
    const server = spans.find((s) => s.kind === SpanKind.SERVER);
    if (server) {
      expect(server.spanContext().traceId).to.equal(client!.spanContext().traceId);
      expect(server.parentSpanContext?.spanId).to.equal(client!.spanContext().spanId);
    }
    return { client: client!, server };
  }

  /**
   * The first span `matches` picks, polling for it (a span that ends after its caller returned): up
   * to 10 s, for a loaded machine; it usually comes within milliseconds.
   */
  async function eventuallySpan(matches: (span: ReadableSpan) => boolean): Promise<ReadableSpan> {
    for (const deadline = Date.now() + 10_000; Date.now() < deadline;) {
      const span = tracing.spans().find(matches);
      if (span) return span;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error(`no such span among ${tracing.spans().map((s) => s.name)}`);
  }

  /** Calls `busy` (an isError result); returns its client and server span, both there. */
  async function callBusy(client: Any): Promise<{ client: ReadableSpan; server: ReadableSpan }> {
    const result = await client.callTool({ name: 'busy', arguments: {} });
    expect(result.isError).to.equal(true);
    const { client: clientSpan, server } = spansOf('busy');
    expect(server, 'server span').to.not.equal(undefined);
    return { client: clientSpan, server: server! };
  }

  for (const sdk of SDKS) {
    describe(sdk.label, () => {
      let client: Any;
      let server: Any;
      let close: () => Promise<void>;
      before(async () => ({ client, server, close } = await sdk.connect(api, instrumentation)));
      after(() => close());

      async function call(name: string, args: Record<string, unknown> = {}) {
        const agent = tracing.tracer.startSpan('agent');
        const outcome = await context
          .with(trace.setSpan(context.active(), agent), () => client.callTool({ name, arguments: args }))
          .then(
            (result: Any) => ({ result, error: undefined }),
            (error: unknown) => ({ result: undefined, error: error as Any }),
          );
        agent.end();
        const spans = spansOf(name);
        expect(spans.client.parentSpanContext?.spanId).to.equal(agent.spanContext().spanId);
        return { ...outcome, ...spans };
      }

      it('a CLIENT and a SERVER span named tools/call {tool}, in one trace, attributed by the conventions', async () => {
        const { result, client: clientSpan, server } = await call('ok');
        expect(result.isError).to.not.equal(true);
        for (const span of [clientSpan, server!]) {
          expect(span.attributes).to.include({
            'mcp.method.name': 'tools/call',
            'gen_ai.tool.name': 'ok',
            'gen_ai.operation.name': 'execute_tool',
          });
          expect(span.attributes['jsonrpc.request.id']).to.match(/^\d+$/);
          expect(span.status.code).to.not.equal(SpanStatusCode.ERROR);
          expect(span.attributes['error.type']).to.equal(undefined);
          expect(span.attributes['gen_ai.tool.call.result']).to.equal(undefined);
        }
        expect(server!.attributes['jsonrpc.request.id']).to.equal(
          clientSpan.attributes['jsonrpc.request.id'],
        );
        expect(server!.attributes['gen_ai.tool.description']).to.equal('Succeeds');
        // In-memory: no network transport to name.
        expect(clientSpan.attributes['network.transport']).to.equal(undefined);
      });

      it('an isError result is error.type=tool_error on both sides; the status in its text stays in tool.error_detail_type', async () => {
        const { result, client: clientSpan, server } = await call('busy');
        expect(result.isError).to.equal(true);
        for (const span of [clientSpan, server!]) {
          expect(errorOf(span)).to.deep.equal(executedFailure('tool_error', 'transient'));
          expect(span.attributes['tool.error_detail_type']).to.equal('503');
        }
      });

      describe('the server span', () => {
        // The server registers the conformance tool once; each call runs the body of the moment.
        let current: ConformanceTool | undefined;
        describeAdapterConformance({
          spanName: (tool) => `tools/call ${tool}`,
          describesTool: true,
          // An isError result is tool_error by the MCP conventions; the handler's own error is the detail.
          fixedErrorType: 'tool_error',
          // An Error known by nothing but its class name is weaker evidence than the isError result
          // the SDK makes of it (the evidence order), so the result's tool_error stands; the
          // status keeps the handler's (redacted) message.
          differences: { 'plain Error': { detailType: undefined, kind: 'tool_error' } },
          async call(tool) {
            if (!current)
              server.registerTool(
                tool.name,
                { description: tool.description, inputSchema: sdk.inputSchema({ path: z.string() }) },
                async (input: ConformanceInput) => ({
                  content: [{ type: 'text', text: await current!.execute(input) }],
                }),
              );
            current = tool;
            const {
              result,
              client: clientSpan,
              server: serverSpan,
            } = await call(tool.name, { ...tool.input });
            // The client sees only the result: an isError one is tool_error, whatever its text.
            expect(clientSpan.attributes['error.type']).to.equal(result.isError ? 'tool_error' : undefined);
            return { span: serverSpan!, answer: result };
          },
          // The SDK turns the handler's error into an isError result with its message as text.
          expectFailureAnswer: (result, thrown) =>
            expect(result).to.deep.equal({
              isError: true,
              content: [{ type: 'text', text: (thrown as Error).message }],
            }),
          expectSuccessAnswer: (result, returned) =>
            expect(result).to.deep.equal({ content: [{ type: 'text', text: returned }] }),
        });
      });

      // The tool's own client aborts its request with no reason at its deadline: the same bare
      // AbortError as a cancel, told apart by the request's signal. The SDK answers both with an
      // isError result, so error.type is tool_error (the MCP conventions) and the kind is the abort's.
      describe("a thrown abort, read against the request's abort signal", () => {
        it("the tool's own client deadline, the request not canceled -> timeout", async () => {
          const { result, server: serverSpan } = await call('slow_api', { deadlineMs: 50 });
          expect(result.isError).to.equal(true);
          expect(errorOf(serverSpan!)).to.deep.equal(executedFailure('tool_error', 'timeout'));
          expect(serverSpan!.attributes['tool.error_detail_type']).to.equal('timeout');
        });

        it('the client cancels the call (notifications/cancelled) -> canceled', async () => {
          const controller = new AbortController();
          const canceling = setTimeout(() => controller.abort(), 50);
          const params = { name: 'slow_api', arguments: { deadlineMs: 10_000 } };
          const error = await sdk.callToolWith(client, params, { signal: controller.signal }).then(
            () => undefined,
            (e: unknown) => e,
          );
          clearTimeout(canceling);
          expect(error, 'callTool rejects on cancel').to.not.equal(undefined);
          // The server ends its span once the cancel has reached the handler and its call failed
          // (with the reason the client sent: the request's signal is aborted with it).
          const serverSpan = await eventuallySpan(
            (s) => s.kind === SpanKind.SERVER && s.name === 'tools/call slow_api',
          );
          expect(errorOf(serverSpan)).to.deep.equal({
            ...executedFailure('tool_error', 'canceled'),
            executed: false,
          });
        });
      });

      it('an unknown tool is unknown_tool, not executed', async () => {
        const { result, error, client: clientSpan } = await call('no_such_tool');
        expect(clientSpan.attributes['tool.error_kind']).to.equal('unknown_tool');
        expect(clientSpan.attributes['tool.error_executed']).to.equal(false);
        if (sdk.unknownTool === 'result') {
          expect(result.isError).to.equal(true);
          expect(clientSpan.attributes['error.type']).to.equal('tool_error');
          expect(clientSpan.attributes['tool.error_detail_type']).to.equal('-32602');
        } else {
          expect(error.code).to.equal(-32602);
          expect(clientSpan.attributes['error.type']).to.equal('-32602');
          expect(clientSpan.attributes['rpc.response.status_code']).to.equal('-32602');
        }
      });

      if (sdk.unknownTool === 'json-rpc') {
        it('an input-required result is no error on the server span', async () => {
          // On this 2025-era connection the SDK answers the client with an isError text instead.
          const { result, client: clientSpan, server } = await call('needs_input');
          expect(server!.status.code).to.not.equal(SpanStatusCode.ERROR);
          expect(server!.attributes['error.type']).to.equal(undefined);
          expect(result.isError).to.equal(true);
          expect(clientSpan.attributes['error.type']).to.equal('tool_error');
        });
      }

      it("carries the trace context in a copy of params._meta: the caller's object is not changed", async () => {
        const params = Object.freeze({ name: 'ok', arguments: {}, _meta: Object.freeze({ app: 'kept' }) });
        const result = await client.callTool(params);
        expect(result.isError).to.not.equal(true);
        expect(params._meta).to.deep.equal({ app: 'kept' });
        const { client: clientSpan, server } = spansOf('ok');
        expect(server?.parentSpanContext?.spanId).to.equal(clientSpan.spanContext().spanId);
      });

      it('disable() leaves both sides untraced, enable() traces them again', async () => {
        instrumentation.disable();
        try {
          await client.callTool({ name: 'busy', arguments: {} });
          expect(tracing.spans()).to.have.length(0);
        } finally {
          instrumentation.enable();
        }
        await client.callTool({ name: 'busy', arguments: {} });
        spansOf('busy');
      });

      it('a server that receives no trace context still traces the call', async () => {
        propagation.disable();
        try {
          const result = await context.with(trace.deleteSpan(context.active()), () =>
            client.callTool({ name: 'busy', arguments: {} }),
          );
          expect(result.isError).to.equal(true);
        } finally {
          propagation.setGlobalPropagator(
            new CompositePropagator({
              propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
            }),
          );
        }
        const server = tracing.spans().find((s) => s.kind === SpanKind.SERVER);
        expect(server?.attributes['error.type']).to.equal('tool_error');
      });
    });
  }

  describe('@modelcontextprotocol/sdk 1.x over Streamable HTTP on 127.0.0.1', () => {
    let client: Any;
    let close: () => Promise<void>;
    before(async () => {
      const { Client } = load('@modelcontextprotocol/sdk/client/index.js');
      const { StreamableHTTPClientTransport } = load('@modelcontextprotocol/sdk/client/streamableHttp.js');
      const { McpServer } = load('@modelcontextprotocol/sdk/server/mcp.js');
      const { StreamableHTTPServerTransport } = load('@modelcontextprotocol/sdk/server/streamableHttp.js');
      const server = new McpServer({ name: 'http-server', version: '1.0.0' });
      registerTools(server, api, (shape) => shape);
      const serverTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
      await server.connect(serverTransport);
      // The HTTP request runs in its own context: the server span's parent can only come from _meta.
      const http = createServer((req, res) => void serverTransport.handleRequest(req, res));
      await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
      const { port } = http.address() as AddressInfo;
      client = new Client({ name: 'http-client', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
      close = async () => {
        await client.close();
        await server.close();
        http.closeAllConnections();
        await new Promise((resolve) => http.close(resolve));
      };
    });
    after(() => close());

    it('the server span is the client span child; network.transport=tcp, mcp.session.id and the protocol version', async () => {
      const { client: clientSpan, server } = await callBusy(client);
      expect(clientSpan.attributes['network.transport']).to.equal('tcp');
      expect(server.attributes['network.transport']).to.equal('tcp');
      expect(clientSpan.attributes['mcp.session.id']).to.be.a('string');
      expect(server.attributes['mcp.session.id']).to.equal(clientSpan.attributes['mcp.session.id']);
      expect(clientSpan.attributes['mcp.protocol.version']).to.match(/^\d{4}-\d{2}-\d{2}$/);
      expect(server.attributes).to.include({ 'error.type': 'tool_error', 'tool.error_detail_type': '503' });
    });
  });

  describe('an agent framework tool span around callTool', () => {
    let client: Any;
    let close: () => Promise<void>;
    before(async () => ({ client, close } = await SDKS[0]!.connect(api, instrumentation)));
    after(() => close());

    /** Calls `name` under an agent framework's own `execute_tool {frameworkTool}` span; returns it. */
    async function callUnderFrameworkSpan(frameworkTool: string, name: string) {
      const outer = tracing.tracer.startSpan(`execute_tool ${frameworkTool}`, {
        attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': frameworkTool },
      });
      await context.with(trace.setSpan(context.active(), outer), () =>
        client.callTool({ name, arguments: {} }),
      );
      outer.end();
      return outer;
    }

    it("same tool: the framework's execute_tool span gets the MCP attributes, no second client span", async () => {
      const outer = await callUnderFrameworkSpan('busy', 'busy');
      expect(tracing.spans().filter((s) => s.kind === SpanKind.CLIENT)).to.have.length(0);
      const enriched = tracing.span('execute_tool busy');
      expect(enriched.attributes).to.include({
        'mcp.method.name': 'tools/call',
        'tool.error_kind': 'transient',
      });
      expect(enriched.attributes['jsonrpc.request.id']).to.match(/^\d+$/);
      // An execute_tool span keeps this package's rule: the finer type is error.type itself.
      expect(enriched.attributes['error.type']).to.equal('503');
      const server = tracing.spans().find((s) => s.kind === SpanKind.SERVER);
      expect(server?.parentSpanContext?.spanId).to.equal(outer.spanContext().spanId);
    });

    it('another tool name: the CLIENT span nests under the framework span', async () => {
      const outer = await callUnderFrameworkSpan('plan', 'ok');
      const { client: clientSpan } = spansOf('ok');
      expect(clientSpan.parentSpanContext?.spanId).to.equal(outer.spanContext().spanId);
    });
  });

  // The lowest supported, 1.2.0 (the version matrix runs this block on every listed 1.x release).
  const lowest = installedVersion(load, 'mcp-sdk-lowest/package.json');
  describe(`@modelcontextprotocol/sdk ${lowest} as mcp-sdk-lowest (low-level Server)`, () => {
    let client: Any;
    let close: () => Promise<void>;
    before(async () => {
      const patchFile = (suffix: string) =>
        patchAlias(
          instrumentation,
          'mcp-sdk-lowest',
          `@modelcontextprotocol/sdk/dist/cjs/${suffix}`,
          load(`mcp-sdk-lowest/${suffix}`),
        );
      const { Client } = patchFile('client/index.js');
      const { Server } = patchFile('server/index.js');
      const { InMemoryTransport } = load('mcp-sdk-lowest/inMemory.js');
      const { CallToolRequestSchema } = load('mcp-sdk-lowest/types.js');
      const server = new Server({ name: 'low', version: '1.0.0' }, { capabilities: { tools: {} } });
      server.setRequestHandler(CallToolRequestSchema, async (request: Any) =>
        request.params.name === 'busy' ? failingText : { content: [{ type: 'text', text: 'fine' }] },
      );
      ({ client, close } = await linked(
        new Client({ name: 'c', version: '1.0.0' }, { capabilities: {} }),
        server,
        InMemoryTransport,
      ));
    });
    after(() => close());

    it('client and server spans in one trace, tool_error with the status kept', async () => {
      const { client: clientSpan, server } = await callBusy(client);
      for (const span of [clientSpan, server!]) {
        expect(span.attributes['error.type']).to.equal('tool_error');
        expect(span.attributes['tool.error_detail_type']).to.equal('503');
      }
    });

    it('a success: client and server span in one trace, neither marked', async () => {
      const result = await client.callTool({ name: 'ok', arguments: {} });
      expect(result.isError).to.not.equal(true);
      const { client: clientSpan, server } = spansOf('ok');
      for (const span of [clientSpan, server!]) {
        expect(span.status.code).to.not.equal(SpanStatusCode.ERROR);
        expect(span.attributes['error.type']).to.equal(undefined);
      }
    });
  });
});
