import { createRequire } from 'node:module';
import { trace } from '@opentelemetry/api';
import type { Client as ClientType } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpServer as McpServerType } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { loadPackage } from '../subject';
import { consume, dropProvider } from '../tracing';
import { minimalWrapper } from '../wrapper';

/**
 * A driver to profile, not a benchmark: loops one path for a few seconds so that
 * `node --cpu-prof -r tsx/cjs bench/profile/drive.ts <path>` shows where its time goes; summarise
 * the profile with bench/profile/summary.ts. (`-r tsx/cjs`: under `--import tsx` the loader's
 * thread writes its own profile over the main one.) Paths: `mcp-success`, `mcp-failure`
 * (MCP `callTool` over InMemoryTransport, client and server instrumented), `mcp-client-success`,
 * `mcp-client-failure` (the client side only), `mcp-openllmetry-success`, `mcp-openllmetry-failure`
 * (OpenLLMetry's MCP instrumentation instead, the like-for-like peer of the client side), `mcp-bare-success`,
 * `mcp-bare-failure` (no instrumentation), `tool-success`, `tool-failure` (`instrumentTool`),
 * `minimal-success`, `minimal-failure` (a hand-written span wrapper). Build the bundle first
 * (`npm run bench -- wrapper` does). `PROFILE_SECONDS` (default 5), `PROFILE_YIELD=1` lets the
 * event loop turn every 200 calls as an app's I/O would, `PROFILE_TRACE=1` prints CPU per call and
 * heap every 1,000 calls.
 */

const { instrumentTool, ToolInstrumentation } = loadPackage();
const load = createRequire(__filename);
const SECONDS = Number(process.env.PROFILE_SECONDS ?? 5);
const UPSTREAM_ERROR = Object.assign(new Error('Request failed with status code 503'), { status: 503 });

type McpSides = 'both' | 'client' | 'openllmetry' | 'none';

async function mcpCall(sides: McpSides, fails: boolean): Promise<() => Promise<unknown>> {
  const { provider } = dropProvider();
  trace.setGlobalTracerProvider(provider);
  if (sides === 'both' || sides === 'client') new ToolInstrumentation().setTracerProvider(provider);
  const { Client } = load('@modelcontextprotocol/sdk/client/index.js') as { Client: typeof ClientType };
  if (sides === 'openllmetry') {
    const { McpInstrumentation } = load(
      '@traceloop/instrumentation-mcp',
    ) as typeof import('@traceloop/instrumentation-mcp');
    const peer = new McpInstrumentation({ traceContent: false });
    peer.setTracerProvider(provider);
    peer.manuallyInstrument({ Client });
  }
  const { McpServer } = load('@modelcontextprotocol/sdk/server/mcp.js') as {
    McpServer: typeof McpServerType;
  };
  if (sides === 'client') {
    const { Server } = load('@modelcontextprotocol/sdk/server/index.js') as { Server: { prototype: object } };
    unwrap(Server.prototype, 'setRequestHandler');
    unwrap(McpServer.prototype, 'executeToolHandler');
  }
  const { InMemoryTransport } = load('@modelcontextprotocol/sdk/inMemory.js');
  const server = new McpServer({ name: 'profile-server', version: '1.0.0' });
  server.registerTool('get_weather', { inputSchema: { city: z.string() } }, async ({ city }) => {
    if (fails) throw UPSTREAM_ERROR;
    return { content: [{ type: 'text', text: `sunny in ${city}` }] };
  });
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'profile-client', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return () => client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } });
}

/** Puts back a shimmer-wrapped method's original. */
function unwrap(target: object, key: string): void {
  const methods = target as Record<string, { __original?: unknown } | undefined>;
  const original = methods[key]?.__original;
  if (typeof original !== 'function') throw new Error(`${key} is not wrapped`);
  Reflect.set(target, key, original);
}

function toolCall(instrumented: boolean, fails: boolean): () => Promise<unknown> {
  const { provider } = dropProvider();
  const tool = async ({ city }: { city: string }) => {
    if (fails) throw UPSTREAM_ERROR;
    return { city, tempC: 21 };
  };
  const wrapped = instrumented
    ? instrumentTool(tool, 'get_weather', { tracerProvider: provider })
    : minimalWrapper(provider.getTracer('profile'), tool);
  return () => wrapped({ city: 'Paris' });
}

async function main(): Promise<void> {
  const path = process.argv[2] ?? '';
  const [kind, ...rest] = path.split('-');
  const fails = rest.at(-1) === 'failure';
  const sides = ({ bare: 'none', client: 'client', openllmetry: 'openllmetry' } as const)[rest[0]] ?? 'both';
  const call = kind === 'mcp' ? await mcpCall(sides, fails) : toolCall(kind === 'tool', fails);
  const until = Date.now() + SECONDS * 1000;
  let calls = 0;
  let cpuMark = process.cpuUsage();
  while (Date.now() < until) {
    for (let i = 0; i < 200; i++) {
      try {
        consume(await call());
      } catch (err) {
        consume(err);
      }
    }
    calls += 200;
    if (process.env.PROFILE_YIELD) await new Promise((resolve) => setImmediate(resolve));
    if (process.env.PROFILE_TRACE && calls % 1000 === 0) {
      const used = process.cpuUsage(cpuMark);
      cpuMark = process.cpuUsage();
      console.log(
        `${calls}: ${((used.user + used.system) / 1000).toFixed(2)} µs CPU/call, heap ${process.memoryUsage().heapUsed >> 20} MiB`,
      );
    }
  }
  const cpu = process.cpuUsage();
  console.log(
    `${path}: ${calls} calls, ${(((cpu.user + cpu.system) / calls) * 1).toFixed(2)} µs CPU/call (incl. start-up)`,
  );
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
