import { SpanKind, context, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import type { TestTracing } from './tracing';

/** What a run under an agent span gave: its value (undefined when it threw) or its error. */
export interface AgentRun<T> {
  value: T;
  error: unknown;
  agent: Span;
}

/** Runs `run` with an `agent` span active, as an agent framework's own span would be, then ends it. */
export async function underAgentSpan<T>(tracer: Tracer, run: () => Promise<T> | T): Promise<AgentRun<T>> {
  const agent = tracer.startSpan('agent');
  const outcome = await context
    .with(trace.setSpan(context.active(), agent), async () => run())
    .then(
      (value) => ({ value, error: undefined as unknown }),
      (error: unknown) => ({ value: undefined as T, error }),
    );
  agent.end();
  return { ...outcome, agent };
}

/**
 * The one `execute_tool {name}` span: INTERNAL, a child of `parent`, with the GenAI attributes of a
 * function tool and the `attributes` given.
 */
export function expectExecuteToolSpan(
  tracing: TestTracing,
  name: string,
  parent: Span,
  attributes: Record<string, unknown> = {},
): ReadableSpan {
  const span = tracing.span(`execute_tool ${name}`);
  expect(span.kind).to.equal(SpanKind.INTERNAL);
  expect(span.parentSpanContext?.spanId).to.equal(parent.spanContext().spanId);
  expect(span.attributes).to.include({
    'gen_ai.operation.name': 'execute_tool',
    'gen_ai.tool.name': name,
    'gen_ai.tool.type': 'function',
    ...attributes,
  });
  return span;
}
