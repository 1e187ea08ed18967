import { SpanStatusCode, type Attributes, type Tracer } from '@opentelemetry/api';
import axios from 'axios';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '../src/semconv';
import { startFlakyServer } from '../test/helpers/flaky-server';
import { measure, rowsAgainst, type Row, type Variant } from './harness';
import { loadPackage } from './subject';
import { consume, dropProvider } from './tracing';

const { instrumentTool, ToolErrorSpanProcessor } = loadPackage();

/**
 * Case 3: one async tool called through `instrumentTool`, against the hand-written minimal wrapper
 * (`startActiveSpan` + try/catch + `end`, the floor for any wrapper that creates a span) and
 * against the bare tool. Failed calls throw a real axios 503 error, built once.
 */

/** Calls per sample (`batch`), and the tool's name. */
export const OPS = 50;
export const NAME = 'get_weather';

const GENAI_ATTRIBUTES = {
  [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  [ATTR_GEN_AI_TOOL_NAME]: NAME,
};

export type Tool = (args: { city: string }) => Promise<unknown>;

/** The floor: what any span-creating wrapper must do, and nothing else. */
export function minimalWrapper(tracer: Tracer, fn: Tool, attributes: Attributes = {}): Tool {
  return (args) =>
    tracer.startActiveSpan(`execute_tool ${NAME}`, { attributes }, async (span) => {
      try {
        const result = await fn(args);
        span.end();
        return result;
      } catch (err) {
        span.recordException(err as Error);
        span.setStatus({ code: SpanStatusCode.ERROR, message: (err as Error).message });
        span.end();
        throw err;
      }
    });
}

export async function realAxios503(): Promise<unknown> {
  const server = await startFlakyServer();
  try {
    await axios.get(`${server.url}/503`);
  } catch (err) {
    return err;
  } finally {
    await server.close();
  }
  throw new Error('expected a 503');
}

export function batch(tool: Tool, fails: boolean): () => Promise<void> {
  const args = { city: 'Paris' };
  return fails
    ? async () => {
        for (let i = 0; i < OPS; i++) {
          try {
            await tool(args);
          } catch (err) {
            consume(err);
          }
        }
      }
    : async () => {
        for (let i = 0; i < OPS; i++) consume(await tool(args));
      };
}

/** The tool of both outcomes: a result, or `error` thrown. */
export function bothTools(error: unknown): Record<'success' | 'failure', Tool> {
  return {
    success: async ({ city }) => ({ city, tempC: 21 }),
    failure: async () => {
      throw error;
    },
  };
}

/** What every wrapper row is measured beside: the bare tool and the minimal wrapper (the limit). */
export function referenceVariants(tracer: Tracer, fn: Tool, fails: boolean): Variant[] {
  return [
    { name: 'bare tool', fn: batch(fn, fails) },
    { name: 'minimal wrapper', fn: batch(minimalWrapper(tracer, fn), fails) },
  ];
}

export async function run(): Promise<Row[]> {
  const error = await realAxios503();
  const plain = dropProvider();
  const withProcessor = dropProvider([new ToolErrorSpanProcessor()]);
  const tracer = plain.provider.getTracer('bench');
  const tools = bothTools(error);
  const rows: Row[] = [];
  for (const outcome of ['success', 'failure'] as const) {
    const fn = tools[outcome];
    const fails = outcome === 'failure';
    const variants: Variant[] = [
      ...referenceVariants(tracer, fn, fails),
      // The two attributes the GenAI conventions require: part of the gap is just these.
      {
        name: 'minimal wrapper + 2 GenAI attributes',
        fn: batch(minimalWrapper(tracer, fn, GENAI_ATTRIBUTES), fails),
      },
      {
        name: 'instrumentTool',
        fn: batch(instrumentTool(fn, NAME, { tracerProvider: plain.provider }), fails),
        target: fails ? 1.25 : 1.1,
      },
      {
        name: 'instrumentTool + ToolErrorSpanProcessor',
        fn: batch(instrumentTool(fn, NAME, { tracerProvider: withProcessor.provider }), fails),
      },
    ];
    const samples = await measure(`3 ${outcome}`, variants, OPS);
    const [, minimal, ...ours] = variants;
    rows.push(
      ...rowsAgainst(`3 wrapper, ${outcome} (vs minimal wrapper)`, samples, minimal!.name, [
        minimal!,
        ...ours,
      ]),
    );
    rows.push(
      ...rowsAgainst(
        `3 wrapper, ${outcome} (vs bare tool)`,
        samples,
        'bare tool',
        variants.map(({ name }) => ({ name })),
      ),
    );
  }
  await Promise.all([plain.provider.shutdown(), withProcessor.provider.shutdown()]);
  return rows;
}
