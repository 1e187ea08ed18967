import { createRequire } from 'node:module';
import { SpanKind, propagation } from '@opentelemetry/api';
import { CompositePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { z } from 'zod';
import { startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import { callApi, errorOf } from '../helpers/tool-failures';
import { useTwoInstances } from '../helpers/two-instances';

// Loaded after both instances are enabled, so require-in-the-middle patches them for each.
const load = createRequire(__filename);

type Any = any;

/**
 * Two ToolInstrumentation instances, each with its own tracer provider, patch the real MCP SDKs
 * (1.x and 2.x, client and McpServer over the SDK's InMemoryTransport, as mcp.test.ts drives
 * them). As with LangChain, a `tools/call` gets one CLIENT and one SERVER span: both enabled,
 * from the instance whose wrapper runs first; with one disabled, from the other. That holds for a
 * server made while both were enabled and for one made while one was disabled.
 */
const SDKS = [
  {
    label: '@modelcontextprotocol/sdk 1.x',
    load: () => {
      for (const file of ['client/index.js', 'server/index.js', 'server/mcp.js'])
        load(`@modelcontextprotocol/sdk/${file}`);
      return {
        Client: load('@modelcontextprotocol/sdk/client/index.js').Client,
        McpServer: load('@modelcontextprotocol/sdk/server/mcp.js').McpServer,
        InMemoryTransport: load('@modelcontextprotocol/sdk/inMemory.js').InMemoryTransport,
        inputSchema: (shape: Any) => shape,
      };
    },
  },
  {
    label: '@modelcontextprotocol/client and /server 2.x',
    load: () => {
      const server = load('@modelcontextprotocol/server');
      return {
        Client: load('@modelcontextprotocol/client').Client,
        McpServer: server.McpServer,
        InMemoryTransport: server.InMemoryTransport,
        inputSchema: (shape: Any) => z.object(shape),
      };
    },
  },
];

/** The spans of a call of `fetch_path` with `/ok`, then `/503`: kind and error.type and exception events, the server's first. */
const EXPECTED = ['server ok', 'client ok', 'server tool_error exception', 'client tool_error'];

for (const sdk of SDKS)
  describe(`MCP adapter, ${sdk.label}: two ToolInstrumentation instances with their own providers`, function () {
    this.timeout(120_000);
    const two = useTwoInstances();
    let api: FlakyServer;
    let mcp: ReturnType<(typeof SDKS)[number]['load']>;
    let madeWhileBothEnabled: Any;
    const pairs: Array<{ close(): Promise<void> }> = [];

    before(async () => {
      propagation.setGlobalPropagator(
        new CompositePropagator({ propagators: [new W3CTraceContextPropagator()] }),
      );
      mcp = sdk.load();
      api = await startFlakyServer();
      madeWhileBothEnabled = await connect();
    });
    after(async () => {
      for (const pair of pairs) await pair.close();
      propagation.disable();
      await api.close();
    });

    /** A client connected to a new McpServer with `fetch_path`. */
    async function connect(): Promise<Any> {
      const server = new mcp.McpServer({ name: 'test-server', version: '1.0.0' });
      server.registerTool(
        'fetch_path',
        { description: 'GETs a path on the test API', inputSchema: mcp.inputSchema({ path: z.string() }) },
        async ({ path }: { path: string }) => ({
          content: [{ type: 'text', text: await callApi(api.url + path) }],
        }),
      );
      const client = new mcp.Client({ name: 'test-client', version: '1.0.0' });
      const [clientTransport, serverTransport] = mcp.InMemoryTransport.createLinkedPair();
      await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
      pairs.push({
        close: async () => {
          await client.close();
          await server.close();
        },
      });
      return client;
    }

    /** Kind, error.type, and its exception events as `exception`. */
    const describeSpan = (span: ReadableSpan) =>
      [
        span.kind === SpanKind.SERVER ? 'server' : 'client',
        String(errorOf(span).type ?? 'ok'),
        ...span.events.filter((e) => e.name === 'exception').map((e) => e.name),
      ].join(' ');

    /** The spans of `fetch_path` /ok then /503 through `client`, per provider. */
    async function calls(client: Any): Promise<[string[], string[]]> {
      const spans: [string[], string[]] = [[], []];
      for (const path of ['/ok', '/503']) {
        two.first.reset();
        two.second.reset();
        await client.callTool({ name: 'fetch_path', arguments: { path } });
        // The server span ends as the response is sent, before the client's.
        [two.first, two.second].forEach((tracing, i) =>
          spans[i]!.push(
            ...tracing
              .spans()
              .filter((s) => s.name === 'tools/call fetch_path')
              .sort((x, y) => x.kind - y.kind)
              .map(describeSpan),
          ),
        );
      }
      return spans;
    }

    it('both enabled: one client and one server span per call in all', async () => {
      const [inFirst, inSecond] = await calls(madeWhileBothEnabled);
      expect([...inFirst, ...inSecond].sort(), JSON.stringify({ inFirst, inSecond })).to.deep.equal(
        [...EXPECTED].sort(),
      );
    });

    it('the first disabled: the second makes every span, for servers made before and after', async () => {
      await two.whileDisabled(two.a, async () => {
        expect(await calls(madeWhileBothEnabled)).to.deep.equal([[], EXPECTED]);
        expect(await calls(await connect())).to.deep.equal([[], EXPECTED]);
      });
    });

    it('the second disabled: the first makes every span, for servers made before and after', async () => {
      await two.whileDisabled(two.b, async () => {
        expect(await calls(madeWhileBothEnabled)).to.deep.equal([EXPECTED, []]);
        expect(await calls(await connect())).to.deep.equal([EXPECTED, []]);
      });
    });

    it('both enabled again: one client and one server span per call in all', async () => {
      const [inFirst, inSecond] = await calls(madeWhileBothEnabled);
      expect([...inFirst, ...inSecond].sort(), JSON.stringify({ inFirst, inSecond })).to.deep.equal(
        [...EXPECTED].sort(),
      );
    });
  });
