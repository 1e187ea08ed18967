import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { SpanStatusCode, type Context, type Span, type Tracer } from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { z } from 'zod';
import { startFlakyServer, type FlakyServer } from '../test/helpers/flaky-server';
import { compare, settings, type Row } from './harness';
import { loadPackage } from './subject';
import { Toggle } from './toggle';
import { batchProvider, consume, registerMeterProvider } from './tracing';

type Any = any;

const { RedactingSpanProcessor, ToolErrorSpanProcessor, ToolInstrumentation, ToolMetricsSpanProcessor } =
  loadPackage();

/**
 * Case 9: what a user pays per tool call inside each framework's own agent loop. Each framework
 * runs one agent turn in which its scripted model calls a `lookup` tool 10 times, 2 of the calls
 * failing with an upstream error a real HTTP server on 127.0.0.1 answered (a 503, a 429 with
 * Retry-After), then answers. Side by side in one process, interleaved rounds:
 * - without otel-tool-errors: the same OpenTelemetry SDK (BatchSpanProcessor), no instrumentation;
 * - the register's set-up, built up one piece at a time, so that each row's added time over the
 *   previous one is that piece's cost: the wrapper alone (ToolInstrumentation, its spans going
 *   straight to the batch processor), + ToolErrorSpanProcessor, + RedactingSpanProcessor, and
 *   + ToolMetricsSpanProcessor with a global MeterProvider, which is the register's whole chain.
 * - for the AI SDK with its telemetry off, LangGraph and OpenAI Agents, the floors (`Floor`): a
 *   hand-written span per call, and that plus a duration histogram, which any instrumentation
 *   making the package's span and metric pays; the distance from them to the register's row is
 *   what the package adds beyond its promises. (The tool's function is called through one
 *   indirection in every variant of those two, so that the floor can be switched in.)
 * The AI SDK 6 loop runs twice: with the SDK's own telemetry off (ours makes the tool spans) and on
 * (ours enriches the SDK's `ai.toolCall` spans).
 * One tracer provider serves every variant; the variant picks its processor chain (`Chain`), so
 * the switch costs them all alike. The exporter drops the batches: no network on either side.
 * Where users would pick another instrumentation instead (OpenInference for LangGraph, OpenLLMetry
 * for MCP), it is measured after ours in the same process, against the same baseline.
 * `npm run bench -- agent-loops` runs every framework, each in a child process of its own
 * (bench/agent-loops-child.ts); `agent-loops:<framework>` runs one, in this process.
 */

export const TOOL_CALLS = 10;
/** Turns per sample: a turn takes milliseconds. */
const TURNS = 2;
const load = createRequire(__filename);
const execFileAsync = promisify(execFile);

/** Which of the 10 calls fail, and how: the rest succeed. */
const FAILING: Record<number, '503' | '429'> = { 3: '503', 7: '429' };

/** Errors as tools raise them: a fetch Response that was not ok, from a real server, as the cause. */
export async function upstreamErrors(server: FlakyServer): Promise<Record<'503' | '429', Error>> {
  const failed = async (path: string) => {
    const response = await fetch(server.url + path);
    await response.text();
    return new Error(`GET /lookup failed with ${response.status}`, { cause: response });
  };
  return { '503': await failed('/503'), '429': await failed('/429?retryAfter=1') };
}

/** The tool's work: a record, or the upstream error of a failing call. */
function lookup(errors: Record<'503' | '429', Error>, id: number): { id: number; name: string } {
  const failure = FAILING[id];
  if (failure) throw errors[failure];
  return { id, name: `record ${id}` };
}

/** One agent turn of a framework: 10 tool calls, 2 failing, then the model's answer. */
type Turn = () => Promise<unknown>;
interface Loop {
  turn: Turn;
  close?: () => Promise<void>;
  /** Where the loop can run its tool through the hand-written floor (`floorCall`) instead. */
  floor?: (kind: Floor | undefined) => void;
}

/**
 * What any instrumentation that keeps two of the package's promises must do per tool call, by
 * hand and nothing else: `span`, a span per call with the tool running in its context (so that
 * its HTTP calls nest under it) and the error and status on it when it throws; `span+metric`,
 * that and the duration recorded in a histogram with the call's tool name and error type, as
 * `gen_ai.execute_tool.duration` is. The rows against them say what the package adds beyond them.
 */
export type Floor = 'span' | 'span+metric';

/** The floor's work around one call: `run` inside a span of its own, timed when `kind` asks. */
function floorCall(
  tracer: Tracer,
  name: string,
  kind: Floor,
): (run: () => Promise<unknown>) => Promise<unknown> {
  const histogram = kind === 'span+metric' ? floorHistogram() : undefined;
  const attributes = { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name };
  return (run) =>
    tracer.startActiveSpan(`execute_tool ${name}`, { attributes }, async (span) => {
      const start = performance.now();
      let errorType: string | undefined;
      try {
        return await run();
      } catch (err) {
        errorType = (err as Error).name;
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        throw err;
      } finally {
        span.end();
        histogram?.record((performance.now() - start) / 1000, {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': name,
          ...(errorType === undefined ? {} : { 'error.type': errorType }),
        });
      }
    });
}

/**
 * AI SDK 7's floor: an integration in the SDK's global list whose `executeTool` runs the call
 * through the floor's wrapper (and, as ours, listens for the tool's end and the step's end).
 */
function floorIntegration(
  callOf: (kind: Floor | undefined) => ((run: () => Promise<unknown>) => Promise<unknown>) | undefined,
): (kind: Floor | undefined) => void {
  const registry = ((globalThis as Any).AI_SDK_TELEMETRY_INTEGRATIONS ??= []) as unknown[];
  let current: object | undefined;
  return (kind) => {
    if (current) registry.splice(registry.indexOf(current), 1);
    const call = callOf(kind);
    current = call && {
      executeTool: (event: Any) => call(() => event.execute()),
      onToolExecutionEnd: () => undefined,
      onStepEnd: () => undefined,
    };
    if (current) registry.push(current);
  };
}

/** Both floors for the `lookup` tool, their spans to `provider`. */
function floorsOf(provider: Provider): Record<Floor, (run: () => Promise<unknown>) => Promise<unknown>> {
  const tracer = provider.getTracer('floor');
  return {
    span: floorCall(tracer, 'lookup', 'span'),
    'span+metric': floorCall(tracer, 'lookup', 'span+metric'),
  };
}

/**
 * The floors for a loop whose tool calls `work` (the tool's own code, the framework around it
 * untouched): `floor(kind)` runs it through `floorCall`, `floor(undefined)` directly again.
 */
function switchableTool(
  provider: Provider,
  work: (...args: Any[]) => Promise<unknown>,
): { execute: (...args: Any[]) => Promise<unknown>; floor: (kind: Floor | undefined) => void } {
  const floors = floorsOf(provider);
  let current = work;
  return {
    execute: (...args) => current(...args),
    floor: (kind) => (current = kind === undefined ? work : (...args) => floors[kind](() => work(...args))),
  };
}

function floorHistogram() {
  return registerMeterProvider().getMeter('floor').createHistogram('floor.execute_tool.duration');
}

type Provider = ReturnType<typeof batchProvider>['provider'];

/**
 * The instrumentation users would pick instead of ours for a framework, installed once on the
 * loaded framework, spans to `provider`; `set` switches its patch on and off between variants.
 */
interface Peer {
  label: string;
  install(provider: Provider): Pick<Toggle, 'set'>;
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** An AI SDK mock model (v3 spec, which AI SDK 6 and 7 and Mastra take): 10 tool calls, then text. */
function aiSdkModel(MockLanguageModelV3: Any) {
  const toolCalls = Array.from({ length: TOOL_CALLS }, (_, i) => ({
    type: 'tool-call',
    toolCallId: `call-${i}`,
    toolName: 'lookup',
    input: JSON.stringify({ id: i }),
  }));
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }: Any) =>
      prompt.some((message: Any) => message.role === 'tool')
        ? {
            content: [{ type: 'text', text: 'done' }],
            finishReason: { unified: 'stop' },
            usage,
            warnings: [],
          }
        : { content: toolCalls, finishReason: { unified: 'tool-calls' }, usage, warnings: [] },
  });
}

/** `telemetry`: the AI SDK's own spans on (`experimental_telemetry`), which ours then enriches. */
function aiSdk(name: 'ai' | 'ai-v7', telemetry = false) {
  return async (errors: Record<'503' | '429', Error>, provider: Provider): Promise<Loop> => {
    const ai = load(name);
    const { MockLanguageModelV3 } = load(`${name}/test`);
    const tools = {
      lookup: ai.tool({
        description: 'Looks a record up by id',
        inputSchema: z.object({ id: z.number() }),
        execute: async ({ id }: { id: number }) => lookup(errors, id),
      }),
    };
    const stopWhen = name === 'ai' ? ai.stepCountIs(2) : ai.isStepCount(2);
    // Only when on: AI SDK 7 hands a call that says `isEnabled: false` to no integration, ours included.
    const experimental_telemetry = telemetry
      ? { isEnabled: true, tracer: provider.getTracer('ai') }
      : undefined;
    const execute = tools.lookup.execute;
    const floors = floorsOf(provider);
    return {
      turn: () =>
        ai.generateText({
          model: aiSdkModel(MockLanguageModelV3),
          prompt: 'look up',
          tools,
          stopWhen,
          experimental_telemetry,
        }),
      // With the AI SDK's telemetry on, its own span is the one to enrich: no floor of ours to add.
      // AI SDK 7 reaches a tool's execution only through a telemetry integration, whose events the
      // SDK builds for each integration: its floor is the same work done from one.
      floor: telemetry
        ? undefined
        : name === 'ai-v7'
          ? floorIntegration((kind) => kind && floors[kind])
          : (kind) =>
              (tools.lookup.execute =
                kind === undefined ? execute : (...args: Any[]) => floors[kind](() => execute(...args))),
    };
  };
}

/**
 * LangChain's callback handlers (how OpenInference and OpenLLMetry trace it) run in the background
 * by default, so their work could spill into the next sample, of another variant: awaited inline
 * instead (LangChain's setting for serverless), as in case 4. Every variant runs with it.
 */
process.env.LANGCHAIN_CALLBACKS_BACKGROUND = 'false';

/** OpenInference's LangChain instrumentation (Arize), its defaults: inputs and outputs recorded. */
const openInferenceLangChain: Peer = {
  label: 'OpenInference LangChain instrumentation (Arize), defaults',
  install(provider) {
    const { LangChainInstrumentation } = load('@arizeai/openinference-instrumentation-langchain');
    const managerModule = load('@langchain/core/callbacks/manager');
    new LangChainInstrumentation({ tracerProvider: provider }).manuallyInstrument(managerModule);
    return Toggle.shimmer(managerModule.CallbackManager, '_configureSync');
  },
};

/** OpenLLMetry's MCP instrumentation (Traceloop), its defaults: the client's `tools/call` requests. */
const openLlmetryMcp: Peer = {
  label: 'OpenLLMetry MCP instrumentation (Traceloop), defaults',
  install(provider) {
    const { McpInstrumentation } = load('@traceloop/instrumentation-mcp');
    const { Client } = load('@modelcontextprotocol/sdk/client/index.js');
    const instrumentation = new McpInstrumentation();
    instrumentation.setTracerProvider(provider);
    instrumentation.manuallyInstrument({ Client });
    return Toggle.shimmer(Client.prototype, 'request');
  },
};

async function langgraph(errors: Record<'503' | '429', Error>, provider: Provider): Promise<Loop> {
  const { createReactAgent } = load('@langchain/langgraph/prebuilt');
  const { BaseChatModel } = load('@langchain/core/language_models/chat_models');
  const { AIMessage } = load('@langchain/core/messages');
  const { tool } = load('@langchain/core/tools');
  // A scripted chat model: 10 tool calls, then, once the tool messages are in, an answer.
  class ScriptedChatModel extends BaseChatModel {
    _llmType() {
      return 'scripted';
    }
    bindTools() {
      return this;
    }
    async _generate(messages: Any[]) {
      const answered = messages.some((message) => message.getType() === 'tool');
      const message = answered
        ? new AIMessage({ content: 'done' })
        : new AIMessage({
            content: '',
            tool_calls: Array.from({ length: TOOL_CALLS }, (_, i) => ({
              id: `call-${i}`,
              name: 'lookup',
              args: { id: i },
              type: 'tool_call',
            })),
          });
      return { generations: [{ text: '', message }] };
    }
  }
  const work = switchableTool(provider, async ({ id }: { id: number }) => JSON.stringify(lookup(errors, id)));
  const lookupTool = tool(work.execute, {
    name: 'lookup',
    description: 'Looks a record up by id',
    schema: z.object({ id: z.number() }),
  });
  const agent = createReactAgent({ llm: new (ScriptedChatModel as Any)({}), tools: [lookupTool] });
  return {
    turn: () => agent.invoke({ messages: [{ role: 'user', content: 'look up' }] }),
    floor: work.floor,
  };
}

async function openaiAgents(errors: Record<'503' | '429', Error>, provider: Provider): Promise<Loop> {
  const agents = load('@openai/agents-core');
  const { ScriptedModel, functionCall, assistantMessage } = load('@openai/agents-core/testing');
  agents.setTracingDisabled(true);
  const work = switchableTool(provider, async ({ id }: { id: number }) => JSON.stringify(lookup(errors, id)));
  const lookupTool = agents.tool({
    name: 'lookup',
    description: 'Looks a record up by id',
    parameters: z.object({ id: z.number() }),
    execute: work.execute,
  });
  const runner = new agents.Runner({ tracingDisabled: true });
  return {
    turn: () => {
      const model = new ScriptedModel([
        Array.from({ length: TOOL_CALLS }, (_, i) =>
          functionCall('lookup', { id: i }, { callId: `call-${i}` }),
        ),
        [assistantMessage('done')],
      ]);
      const agent = new agents.Agent({ name: 'bench', instructions: 'look up', model, tools: [lookupTool] });
      return runner.run(agent, 'look up');
    },
    floor: work.floor,
  };
}

async function mastra(errors: Record<'503' | '429', Error>): Promise<Loop> {
  const { Agent } = load('@mastra/core/agent');
  const { createTool } = load('@mastra/core/tools');
  const { MockLanguageModelV3 } = load('ai/test');
  const lookupTool = createTool({
    id: 'lookup',
    description: 'Looks a record up by id',
    inputSchema: z.object({ id: z.number() }),
    execute: async ({ id }: { id: number }) => lookup(errors, id),
  });
  return {
    turn: () =>
      new Agent({
        id: 'bench',
        name: 'bench',
        instructions: 'look up',
        model: aiSdkModel(MockLanguageModelV3),
        tools: { lookup: lookupTool },
      }).generate('look up'),
  };
}

/**
 * MCP: a client calling an McpServer's tool over Streamable HTTP on 127.0.0.1, both in this process
 * (so both sides are instrumented, as a client and a server each under the register would be). An
 * agent's turn is the 10 `tools/call` requests it makes, concurrently; a failing call is the
 * server's `isError` result for the upstream error its handler threw.
 */
async function mcp(errors: Record<'503' | '429', Error>): Promise<Loop> {
  const { McpServer } = load('@modelcontextprotocol/sdk/server/mcp.js');
  const { StreamableHTTPServerTransport } = load('@modelcontextprotocol/sdk/server/streamableHttp.js');
  const { Client } = load('@modelcontextprotocol/sdk/client/index.js');
  const { StreamableHTTPClientTransport } = load('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const server = new McpServer({ name: 'bench', version: '1.0.0' });
  server.registerTool(
    'lookup',
    { description: 'Looks a record up by id', inputSchema: { id: z.number() } },
    async ({ id }: { id: number }) => ({
      content: [{ type: 'text', text: JSON.stringify(lookup(errors, id)) }],
    }),
  );
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => 'bench-session' });
  await server.connect(transport);
  const http = createServer((req, res) => void transport.handleRequest(req, res));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  const client = new Client({ name: 'bench', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`http://127.0.0.1:${port}/mcp`)));
  return {
    turn: () =>
      Promise.all(
        Array.from({ length: TOOL_CALLS }, (_, i) =>
          client.callTool({ name: 'lookup', arguments: { id: i } }),
        ),
      ),
    close: async () => {
      await client.close();
      await server.close();
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
}

/**
 * The frameworks, and the peer instrumentation for those that have one users would pick: the AI
 * SDK, OpenAI Agents and Mastra trace through their own telemetry, which ours enriches rather than
 * replaces (case 8 measures the AI SDK's on); OpenLLMetry's LangChain instrumentation patches the
 * same callback manager as OpenInference's, so one process measures one of them (case 4 has both).
 */
export const FRAMEWORKS: Record<
  string,
  { label: string; loop: (errors: Any, provider: Provider) => Promise<Loop>; peer?: Peer }
> = {
  'ai-sdk-v6': { label: 'AI SDK 6 generateText', loop: aiSdk('ai') },
  'ai-sdk-v6-telemetry': {
    label: "AI SDK 6 generateText, the AI SDK's telemetry on",
    loop: aiSdk('ai', true),
  },
  'ai-sdk-v7': { label: 'AI SDK 7 generateText', loop: aiSdk('ai-v7') },
  langgraph: { label: 'LangGraph createReactAgent', loop: langgraph, peer: openInferenceLangChain },
  'openai-agents': { label: 'OpenAI Agents Runner', loop: openaiAgents },
  mastra: { label: 'Mastra Agent.generate', loop: mastra },
  mcp: { label: 'MCP client + McpServer over Streamable HTTP', loop: mcp, peer: openLlmetryMcp },
};

/** The processors of the provider every variant shares; a variant picks which run. */
class Chain implements SpanProcessor {
  processors: SpanProcessor[] = [];

  onStart(span: Span, parentContext: Context): void {
    for (const processor of this.processors) processor.onStart(span as never, parentContext);
  }

  onEnding(span: Span): void {
    for (const processor of this.processors) (processor as { onEnding?: (s: Span) => void }).onEnding?.(span);
  }

  onEnd(span: ReadableSpan): void {
    for (const processor of this.processors) processor.onEnd(span);
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The variants side by side, each row noting the spans it exported per turn. */
async function compareLoop(
  caseName: string,
  variants: { name: string; fn: () => Promise<void>; setUp: () => void }[],
  sample: () => Promise<void>,
  provider: Provider,
  exported: ReturnType<typeof batchProvider>['exported'],
): Promise<Row[]> {
  const spans: string[] = [];
  for (const variant of variants) {
    variant.setUp();
    await provider.forceFlush();
    const before = exported.spans;
    await sample();
    await provider.forceFlush();
    const perTurn = (exported.spans - before) / TURNS;
    // A variant that should trace and made no span measures nothing of ours: a broken set-up.
    if (perTurn === 0 && variant.name !== WITHOUT) {
      throw new Error(`${caseName}: "${variant.name}" exported no span; its figures would mean nothing`);
    }
    spans.push(`${perTurn} spans/turn`);
  }
  // A turn takes milliseconds: longer rounds for enough samples per round.
  const rows = await compare(
    { case: caseName, baseline: WITHOUT, opsPerCall: TURNS * TOOL_CALLS, variants },
    { timeMs: 2 * settings.timeMs },
  );
  rows.forEach((row, i) => (row.spread += `; ${spans[i]}`));
  return rows;
}

const WITHOUT = 'without otel-tool-errors (OpenTelemetry SDK, BatchSpanProcessor)';
const FLOORS: [Floor, string][] = [
  ['span', 'floor: a hand-written span per call, the tool in its context'],
  ['span+metric', 'floor: the same + a duration histogram record per call'],
];
const REGISTER = 'with otel-tool-errors as the register sets it up (+ ToolMetricsSpanProcessor)';

/**
 * Each framework in a child process of its own, one after another: in one process, a framework
 * loaded earlier changed what a later one measured (the instrumentation made no spans for Mastra,
 * and only the client's for MCP, after the other frameworks had loaded and been patched).
 */
async function inChildren(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const name of Object.keys(FRAMEWORKS)) {
    const { stdout } = await execFileAsync(
      process.execPath,
      [...process.execArgv, join(__dirname, 'agent-loops-child.ts'), name],
      { maxBuffer: 16 * 1024 * 1024 },
    );
    rows.push(...(JSON.parse(stdout.trim().split('\n').at(-1)!) as Row[]));
  }
  return rows;
}

export async function run(only?: string): Promise<Row[]> {
  if (only === undefined) return inChildren();
  if (!(only in FRAMEWORKS)) {
    throw new Error(`agent-loops: unknown ${only}; known: ${Object.keys(FRAMEWORKS).join(', ')}`);
  }
  const names = [only];
  registerMeterProvider();
  const chain = new Chain();
  const { provider, exported } = batchProvider([chain]);
  const instrumentation = new ToolInstrumentation();
  instrumentation.setTracerProvider(provider);
  const errorProcessor = new ToolErrorSpanProcessor();
  const redacting = new RedactingSpanProcessor();
  const metricsProcessor = new ToolMetricsSpanProcessor();
  const chains: [string, SpanProcessor[], boolean][] = [
    [WITHOUT, [], false],
    ['wrapper only (ToolInstrumentation, no processor of ours)', [], true],
    ['+ ToolErrorSpanProcessor', [errorProcessor], true],
    ['+ RedactingSpanProcessor', [redacting, errorProcessor], true],
    [REGISTER, [redacting, errorProcessor, metricsProcessor], true],
  ];
  const server = await startFlakyServer();
  const errors = await upstreamErrors(server);
  const rows: Row[] = [];
  try {
    for (const name of names) {
      const framework = FRAMEWORKS[name]!;
      // Loaded after the instrumentation exists, so that its module hooks patch the framework.
      const loop = await framework.loop(errors, provider);
      const sample = async () => {
        for (let i = 0; i < TURNS; i++) consume(await loop.turn());
      };
      const variants = chains.map(([variant, processors, instrumented]) => ({
        name: variant,
        fn: sample,
        setUp: () => {
          loop.floor?.(undefined);
          chain.processors = processors;
          if (instrumented) instrumentation.enable();
          else instrumentation.disable();
        },
      }));
      if (loop.floor) {
        for (const [kind, label] of FLOORS) {
          variants.splice(1 + FLOORS.findIndex(([k]) => k === kind), 0, {
            name: label,
            fn: sample,
            setUp: () => {
              chain.processors = [];
              instrumentation.disable();
              loop.floor!(kind);
            },
          });
        }
      }
      const caseName = `9 agent loop: ${framework.label}, 10 tool calls (2 failing: 503, 429) (per tool call)`;
      rows.push(...(await compareLoop(caseName, variants, sample, provider, exported)));
      // The peer runs after ours, in rounds of its own against the same baseline, with ours off:
      // once OpenInference is installed, our LangChain adapter leaves tool calls to its TOOL span
      // (one span per call; the flag it reads stays set when the patch is switched off), so the
      // two cannot interleave.
      if (framework.peer) {
        const peer = framework.peer.install(provider);
        const peerVariants = [
          { ...variants[0]!, setUp: () => (peer.set(false), variants[0]!.setUp()) },
          {
            name: `instead: ${framework.peer.label}`,
            fn: sample,
            setUp: () => {
              instrumentation.disable();
              chain.processors = [];
              peer.set(true);
            },
          },
        ];
        rows.push(...(await compareLoop(`${caseName}, peer`, peerVariants, sample, provider, exported)));
        peer.set(false);
      }
      await loop.close?.();
    }
  } finally {
    instrumentation.disable();
    await server.close();
    await provider.shutdown();
  }
  return rows;
}
