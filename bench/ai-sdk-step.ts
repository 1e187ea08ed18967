import { createRequire } from 'node:module';
import type * as Ai from 'ai';
import type * as AiTest from 'ai/test';
import { z } from 'zod';
import { compare, settings, type Row } from './harness';
import { loadPackage } from './subject';
import { batchProvider, consume, registerMeterProvider } from './tracing';

const { RedactingSpanProcessor, ToolErrorSpanProcessor, ToolInstrumentation, ToolMetricsSpanProcessor } =
  loadPackage();

/**
 * Case 8, end to end: one AI SDK (v6) agent step in which the model calls 10 tools, two of them
 * failing with an upstream 503, then answers. With otel-tool-errors as the register sets it up
 * (ToolInstrumentation, the register's processors, a BatchSpanProcessor) against the same OpenTelemetry
 * SDK without the package, per tool call; with the AI SDK's own telemetry off (its default) and on.
 * The exporter drops the batches (no network), so the ratio is the strictest; an OTLP export
 * would add the same serialisation cost per span to both sides.
 */

const TOOL_CALLS = 10;
/** Steps per sample. */
const STEPS = 2;
const load = createRequire(__filename);

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

const UPSTREAM_ERROR = Object.assign(new Error('Request failed with status code 503'), { status: 503 });

/** The model's first step calls `lookup` 10 times; once the tool results are in, it answers. */
function model(MockLanguageModelV3: typeof AiTest.MockLanguageModelV3) {
  const toolCalls = Array.from({ length: TOOL_CALLS }, (_, i) => ({
    type: 'tool-call' as const,
    toolCallId: `call-${i}`,
    toolName: 'lookup',
    input: JSON.stringify({ id: i }),
  }));
  // A fresh mock per step: MockLanguageModelV3 keeps every call's options.
  return new MockLanguageModelV3({
    doGenerate: async ({ prompt }) =>
      prompt.some((message) => message.role === 'tool')
        ? {
            content: [{ type: 'text', text: 'done' }],
            finishReason: { unified: 'stop', raw: undefined },
            usage,
            warnings: [],
          }
        : {
            content: toolCalls,
            finishReason: { unified: 'tool-calls', raw: undefined },
            usage,
            warnings: [],
          },
  });
}

export async function run(): Promise<Row[]> {
  registerMeterProvider();
  const plain = batchProvider();
  const ours = batchProvider([
    new RedactingSpanProcessor(),
    new ToolErrorSpanProcessor(),
    new ToolMetricsSpanProcessor(),
  ]);
  const instrumentation = new ToolInstrumentation();
  instrumentation.setTracerProvider(ours.provider);
  // Loaded after the instrumentation exists, so require-in-the-middle hands out the patched exports.
  const ai = load('ai') as typeof Ai;
  const { MockLanguageModelV3 } = load('ai/test') as typeof AiTest;
  const tools = {
    lookup: ai.tool({
      description: 'Looks a record up by id',
      inputSchema: z.object({ id: z.number() }),
      execute: async ({ id }) => {
        if (id % 5 === 4) throw UPSTREAM_ERROR;
        return { id, name: `record ${id}` };
      },
    }),
  };
  const step = (provider: typeof plain.provider, telemetry: boolean) => async () => {
    for (let i = 0; i < STEPS; i++) {
      consume(
        await ai.generateText({
          model: model(MockLanguageModelV3),
          prompt: 'look up the records',
          tools,
          stopWhen: ai.stepCountIs(2),
          experimental_telemetry: { isEnabled: telemetry, tracer: provider.getTracer('ai') },
        }),
      );
    }
  };
  const rows: Row[] = [];
  for (const telemetry of [false, true]) {
    const without = `without otel-tool-errors (OpenTelemetry SDK, BatchSpanProcessor)`;
    const withOurs = `with otel-tool-errors as the register sets it up`;
    const variants = [
      { name: without, fn: step(plain.provider, telemetry), setUp: () => instrumentation.disable() },
      { name: withOurs, fn: step(ours.provider, telemetry), setUp: () => instrumentation.enable() },
    ];
    // What each side exports per step, for the reader to compare like with like.
    const spans: string[] = [];
    for (const [variant, { exported, provider }] of [
      [variants[0]!, plain],
      [variants[1]!, ours],
    ] as const) {
      variant.setUp();
      await provider.forceFlush();
      const before = exported.spans;
      await variant.fn();
      await provider.forceFlush();
      spans.push(`${(exported.spans - before) / STEPS} spans/step`);
    }
    // A step takes milliseconds: longer rounds for enough samples per round.
    const caseRows = await compare(
      {
        case: `8 AI SDK v6 step, 10 tool calls (2 failing), AI SDK telemetry ${telemetry ? 'on' : 'off'} (per tool call)`,
        baseline: without,
        opsPerCall: STEPS * TOOL_CALLS,
        variants,
      },
      { timeMs: 2 * settings.timeMs },
    );
    caseRows.forEach((row, i) => (row.spread += `; ${spans[i]}`));
    rows.push(...caseRows);
  }
  instrumentation.disable();
  await Promise.all([plain.provider.shutdown(), ours.provider.shutdown()]);
  return rows;
}
