import { context, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import {
  classifyToolError,
  classifyToolResult,
  instrumentTool,
  ToolErrorSpanProcessor,
  ToolExecutionError,
  type ToolErrorClassification,
} from '../../src';
import { traceToolCall } from '../../src/instrumentation/tool-call/trace-tool-call';

/**
 * The workload of test/reliability/load.test.ts and of `npm run bench -- export-failure`: many
 * concurrent tool calls, one in five failing, each under its own agent span, half through
 * `traceToolCall` and half through `instrumentTool`.
 */

export const FAILING_EVERY = 5; // 20% of the calls fail

/** One way to fail for each kind of the taxonomy, as real clients and frameworks shape them. */
const FAILURES: readonly (() => { thrown?: unknown; returned?: unknown })[] = [
  () => ({ thrown: Object.assign(new Error('Request failed with status code 503'), { status: 503 }) }),
  () => ({
    thrown: Object.assign(new Error('Too Many Requests'), {
      response: { status: 429, headers: { 'retry-after': '2' } },
    }),
  }),
  () => ({ thrown: Object.assign(new Error('insufficient_quota'), { status: 429 }) }),
  () => ({ thrown: Object.assign(new Error('Unauthorized'), { statusCode: 401 }) }),
  () => ({ thrown: Object.assign(new Error('Not Found'), { status: 404 }) }),
  () => ({ thrown: Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }) }),
  () => ({ thrown: new DOMException('The operation timed out.', 'TimeoutError') }),
  () => ({ thrown: new DOMException('This operation was aborted', 'AbortError') }),
  () => ({ thrown: Object.assign(new Error('Invalid input'), { name: 'ZodError' }) }),
  () => ({ thrown: new ToolExecutionError('no such tool', { kind: 'unknown_tool' }) }),
  () => ({ thrown: new ToolExecutionError('denied by policy', { kind: 'not_permitted' }) }),
  () => ({ thrown: new TypeError("Cannot read properties of undefined (reading 'x')") }),
  () => ({ returned: { isError: true, content: [{ type: 'text', text: 'the ledger is locked' }] } }),
];

export interface Call {
  index: number;
  tool: string;
  delayMs: number;
  thrown?: unknown;
  returned: unknown;
  expected?: ToolErrorClassification;
}

export function workload(n: number): Call[] {
  const calls: Call[] = [];
  for (let i = 0; i < n; i++) {
    const call: Call = { index: i, tool: `load_tool_${i % 20}`, delayMs: i % 7, returned: { ok: i } };
    if (i % FAILING_EVERY === 0) {
      const failure = FAILURES[(i / FAILING_EVERY) % FAILURES.length]();
      if ('thrown' in failure) {
        call.thrown = failure.thrown;
        call.expected = classifyToolError(failure.thrown);
      } else {
        call.returned = failure.returned;
        call.expected = classifyToolResult(failure.returned);
      }
    }
    calls.push(call);
  }
  return calls;
}

export interface RunResult {
  wallMs: number;
  p99Ms: number;
  /** Calls whose outcome (value or error identity) was not what the tool produced. */
  wrongOutcomes: number;
  agentSpanIds: string[];
}

/** Runs every call at once, each under its own agent span; half through instrumentTool. */
export async function runCalls(provider: BasicTracerProvider, calls: Call[]): Promise<RunResult> {
  const tracer = provider.getTracer('load');
  const tools = new Map<string, (call: Call) => Promise<unknown>>();
  const body = async (call: Call) => {
    await new Promise((resolve) => setTimeout(resolve, call.delayMs));
    if (call.thrown !== undefined) throw call.thrown;
    return call.returned;
  };
  const agentSpanIds: string[] = new Array(calls.length);
  const latencies: number[] = new Array(calls.length);
  let wrongOutcomes = 0;
  const started = performance.now();
  await Promise.all(
    calls.map(async (call) => {
      const agent = tracer.startSpan(`agent step ${call.index}`);
      agentSpanIds[call.index] = agent.spanContext().spanId;
      const t0 = performance.now();
      const outcome = await context.with(trace.setSpan(context.active(), agent), async () => {
        try {
          if (call.index % 2 === 0) {
            return {
              value: await traceToolCall(tracer, {}, { name: call.tool, callId: `call-${call.index}` }, () =>
                body(call),
              ),
            };
          }
          let tool = tools.get(call.tool);
          if (!tool) {
            tool = instrumentTool(body, { name: call.tool }, { tracerProvider: provider });
            tools.set(call.tool, tool);
          }
          return { value: await tool(call) };
        } catch (error) {
          return { error };
        }
      });
      latencies[call.index] = performance.now() - t0;
      agent.end();
      const right =
        call.thrown !== undefined ? outcome.error === call.thrown : outcome.value === call.returned;
      if (!right) wrongOutcomes++;
    }),
  );
  const wallMs = performance.now() - started;
  latencies.sort((a, b) => a - b);
  return { wallMs, p99Ms: latencies[Math.floor(latencies.length * 0.99)], wrongOutcomes, agentSpanIds };
}

/**
 * A provider with the processor, `counters`, and a BatchSpanProcessor with room for every span of
 * a burst of `calls` (their tool spans and their parents) exporting to `exporter`, if any.
 */
export function providerWith(
  exporter: SpanExporter | undefined,
  calls: number,
  counters: SpanProcessor[] = [],
): BasicTracerProvider {
  return new BasicTracerProvider({
    spanProcessors: [
      new ToolErrorSpanProcessor(),
      ...counters,
      ...(exporter
        ? [
            new BatchSpanProcessor(exporter, {
              maxQueueSize: calls * 2 + 1_000,
              maxExportBatchSize: 2_000,
              scheduledDelayMillis: 100,
              exportTimeoutMillis: 5_000,
            }),
          ]
        : []),
    ],
  });
}
