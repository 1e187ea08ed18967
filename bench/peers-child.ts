import { createRequire } from 'node:module';
import { SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { Client as ClientType } from '@modelcontextprotocol/sdk/client/index.js';
import type { McpServer as McpServerType } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { measureRound, settings, type RoundSample, type Variant } from './harness';
import { PEER_LABELS, PEERS, type Framework } from './peers';
import { loadPackage } from './subject';
import { consume, dropProvider } from './tracing';
import { Toggle } from './toggle';

const { ToolErrorSpanProcessor, ToolInstrumentation } = loadPackage();

/**
 * One peer in its own process (case 4): `node --import tsx bench/peers-child.ts <framework> <peer>`.
 * The peers patch the same LangChain callback manager, so each child loads one. Inside the child,
 * the bare and the instrumented calls still run interleaved: the patched method is swapped with the
 * original before each variant's samples (`Toggle`, outside the timing), which is all that
 * enable/disable would do. It measures one round at a time when the parent (bench/peers.ts) asks
 * over IPC, so the parent can interleave the rounds of all children.
 */

const OPS = 50;
/**
 * Shorter than the in-process cases' rounds: a child measures many rounds (bench/peers.ts), and
 * more, shorter rounds interleaved with the other children resist drift better than fewer long ones.
 */
const ROUND_SETTINGS = { timeMs: settings.timeMs * (2 / 3), warmupMs: settings.warmupMs / 2 };
const load = createRequire(__filename);

interface Calls {
  success(): Promise<unknown>;
  failure(): Promise<unknown>;
}

/**
 * The floor: the calls inside a hand-written `startActiveSpan` + try/catch + `end`, the least any
 * span-per-call instrumentation does. Returns calls that take that path while switched on.
 */
function floorCalls(
  tracer: Tracer,
  name: string,
  calls: Calls,
): { calls: Calls; toggle: { set(on: boolean): void } } {
  let on = false;
  const wrap = (call: () => Promise<unknown>) => {
    const wrapped = () =>
      tracer.startActiveSpan(`execute_tool ${name}`, async (span) => {
        try {
          const result = await call();
          span.end();
          return result;
        } catch (err) {
          span.recordException(err as Error);
          span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
          span.end();
          throw err;
        }
      });
    return () => (on ? wrapped() : call());
  };
  return {
    calls: { success: wrap(calls.success), failure: wrap(calls.failure) },
    toggle: { set: (value) => (on = value) },
  };
}

async function settle(call: () => Promise<unknown>): Promise<void> {
  try {
    consume(await call());
  } catch (err) {
    consume(err);
  }
}

const UPSTREAM_ERROR = Object.assign(new Error('Request failed with status code 503'), { status: 503 });

/**
 * Callback handlers (how both peers trace LangChain) run in the background by default, so their
 * work could spill into the next sample, of another variant. Awaiting them inline (LangChain's
 * setting for serverless) keeps each call's cost inside its sample. `awaitAllCallbacks` is no
 * substitute: it also waits on the LangSmith client, about 1.6 ms a call.
 */
process.env.LANGCHAIN_CALLBACKS_BACKGROUND = 'false';

async function langchain(
  peer: string,
  provider: ReturnType<typeof dropProvider>['provider'],
): Promise<{ calls: Calls; toggles: Array<Pick<Toggle, 'set'>> }> {
  let ours: InstanceType<typeof ToolInstrumentation> | undefined;
  if (peer.startsWith('ours')) {
    ours = new ToolInstrumentation();
    ours.setTracerProvider(provider);
  }
  // Loaded after our instrumentation exists, so require-in-the-middle patches StructuredTool.
  const { tool } = load('@langchain/core/tools') as typeof import('@langchain/core/tools');
  const managerModule = load('@langchain/core/callbacks/manager') as {
    CallbackManager: Record<string, unknown>;
  };
  const { CallbackManager } = managerModule;
  const toggles: Toggle[] = [];
  if (ours) {
    const { StructuredTool } = load('@langchain/core/tools') as {
      StructuredTool: { prototype: Record<string, unknown> };
    };
    toggles.push(Toggle.shimmer(StructuredTool.prototype, 'call'));
  } else if (peer.startsWith('openllmetry')) {
    const { LangChainInstrumentation } = load(
      '@traceloop/instrumentation-langchain',
    ) as typeof import('@traceloop/instrumentation-langchain');
    const original = CallbackManager._configureSync;
    // It patches the callback manager in its constructor (CJS now, ESM later).
    const instrumentation = new LangChainInstrumentation({ traceContent: peer === 'openllmetry' });
    instrumentation.setTracerProvider(provider);
    toggles.push(new Toggle(CallbackManager, '_configureSync', original));
  } else if (peer.startsWith('openinference')) {
    const { LangChainInstrumentation } = load(
      '@arizeai/openinference-instrumentation-langchain',
    ) as typeof import('@arizeai/openinference-instrumentation-langchain');
    const hide = peer === 'openinference-no-content';
    const instrumentation = new LangChainInstrumentation({
      tracerProvider: provider,
      traceConfig: hide ? { hideInputs: true, hideOutputs: true } : undefined,
    });
    instrumentation.manuallyInstrument(managerModule as never);
    toggles.push(Toggle.shimmer(CallbackManager, '_configureSync'));
  }
  const schema = z.object({ city: z.string() });
  const weather = tool(async ({ city }) => `sunny in ${city}`, {
    name: 'get_weather',
    description: 'Current weather for a city',
    schema,
  });
  const failing = tool(
    async () => {
      throw UPSTREAM_ERROR;
    },
    { name: 'get_weather_failing', description: 'Always fails with a 503', schema },
  );
  return {
    calls: {
      success: () => weather.invoke({ city: 'Paris' }),
      failure: () => failing.invoke({ city: 'Paris' }),
    },
    toggles,
  };
}

async function mcp(
  peer: string,
  provider: ReturnType<typeof dropProvider>['provider'],
): Promise<{ calls: Calls; toggles: Array<Pick<Toggle, 'set'>> }> {
  let ours: InstanceType<typeof ToolInstrumentation> | undefined;
  if (peer.startsWith('ours')) {
    ours = new ToolInstrumentation();
    ours.setTracerProvider(provider);
  }
  const { Client } = load('@modelcontextprotocol/sdk/client/index.js') as { Client: typeof ClientType };
  const { McpServer } = load('@modelcontextprotocol/sdk/server/mcp.js') as {
    McpServer: typeof McpServerType;
  };
  const { InMemoryTransport } = load('@modelcontextprotocol/sdk/inMemory.js');
  const { Server } = load('@modelcontextprotocol/sdk/server/index.js') as {
    Server: { prototype: Record<string, unknown> };
  };
  const clientProto = Client.prototype as unknown as Record<string, unknown>;
  const toggles: Array<Pick<Toggle, 'set'>> = [];
  if (ours) {
    const instrumentation = ours;
    // The server's tools/call handler is wrapped once, when registered, and asks whether the
    // instrumentation is enabled at each call: the toggle is the instrumentation itself.
    toggles.push({ set: (on) => (on ? instrumentation.enable() : instrumentation.disable()) });
    if (peer === 'ours-client-side') {
      Toggle.shimmer(Server.prototype, 'setRequestHandler').set(false);
      Toggle.shimmer(McpServer.prototype as unknown as Record<string, unknown>, 'executeToolHandler').set(
        false,
      );
    }
  } else if (peer.startsWith('openllmetry')) {
    const { McpInstrumentation } = load(
      '@traceloop/instrumentation-mcp',
    ) as typeof import('@traceloop/instrumentation-mcp');
    const instrumentation = new McpInstrumentation({ traceContent: peer === 'openllmetry' });
    instrumentation.setTracerProvider(provider);
    instrumentation.manuallyInstrument({ Client });
    toggles.push(Toggle.shimmer(clientProto, 'request'));
  }
  const server = new McpServer({ name: 'bench-server', version: '1.0.0' });
  server.registerTool(
    'get_weather',
    { description: 'Current weather', inputSchema: { city: z.string() } },
    async ({ city }) => ({
      content: [{ type: 'text', text: `sunny in ${city}` }],
    }),
  );
  server.registerTool(
    'get_weather_failing',
    { description: 'Always fails', inputSchema: { city: z.string() } },
    async () => {
      throw UPSTREAM_ERROR;
    },
  );
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'bench-client', version: '1.0.0' });
  await Promise.all([server.connect(serverTransport), client.connect(clientTransport)]);
  return {
    calls: {
      success: () => client.callTool({ name: 'get_weather', arguments: { city: 'Paris' } }),
      // The SDK turns the throw into an `isError: true` result.
      failure: () => client.callTool({ name: 'get_weather_failing', arguments: { city: 'Paris' } }),
    },
    toggles,
  };
}

/** What the parent asks for: one more round, or the end. */
export type ChildRequest = { round: number } | { exit: true };

/** What the child answers: `ready` once set up, then one `round` per request. */
export type ChildReply =
  | { ready: true; label: string; spansPerCall: Record<Outcome, number> }
  | { round: number; samples: Record<Outcome, { bare: RoundSample; instrumented: RoundSample }> };

type Outcome = 'success' | 'failure';
const OUTCOMES: readonly Outcome[] = ['success', 'failure'];

async function main(): Promise<void> {
  const [framework, peer] = process.argv.slice(2) as [Framework, string];
  if (!PEERS[framework]?.includes(peer))
    throw new Error(`usage: peers-child.ts <langchain|mcp> <${Object.values(PEERS).flat().join('|')}>`);
  if (!process.send) throw new Error('peers-child.ts runs under bench/peers.ts, which talks to it over IPC');
  const send = (reply: ChildReply) => process.send!(reply);
  const extra = peer === 'ours+processor' ? [new ToolErrorSpanProcessor()] : [];
  const { provider, dropped } = dropProvider(extra);
  trace.setGlobalTracerProvider(provider);
  let { calls, toggles } = await (framework === 'langchain'
    ? langchain(peer, provider)
    : mcp(peer, provider));
  if (peer === 'floor') {
    const floor = floorCalls(provider.getTracer('floor'), 'get_weather', calls);
    calls = floor.calls;
    toggles = [floor.toggle];
  }
  const switchTo = (on: boolean) => () => {
    for (const toggle of toggles) toggle.set(on);
  };
  const sample = (call: () => Promise<unknown>) => async () => {
    for (let i = 0; i < OPS; i++) await settle(call);
  };
  const label = PEER_LABELS[peer]!;
  const variants = (outcome: Outcome): Variant[] => [
    { name: 'bare', fn: sample(calls[outcome]), setUp: switchTo(false) },
    { name: 'instrumented', fn: sample(calls[outcome]), setUp: switchTo(true) },
  ];
  // What the instrumented call exports, for the reader to compare like with like.
  const spansPerCall = {} as Record<Outcome, number>;
  switchTo(true)();
  for (const outcome of OUTCOMES) {
    const before = dropped.ended;
    for (let i = 0; i < 10; i++) await settle(calls[outcome]);
    spansPerCall[outcome] = (dropped.ended - before) / 10;
  }
  send({ ready: true, label, spansPerCall });
  process.on('message', (request: ChildRequest) => {
    if ('exit' in request) process.exit(0);
    void (async () => {
      const samples = {} as Record<Outcome, { bare: RoundSample; instrumented: RoundSample }>;
      for (const outcome of OUTCOMES) {
        const measured = await measureRound(
          `${framework} ${outcome} ${peer}`,
          variants(outcome),
          OPS,
          request.round,
          ROUND_SETTINGS,
        );
        samples[outcome] = { bare: measured.get('bare')!, instrumented: measured.get('instrumented')! };
      }
      send({ round: request.round, samples });
    })().catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
