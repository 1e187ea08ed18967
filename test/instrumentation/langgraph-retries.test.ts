import { createRequire } from 'node:module';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { toolCallAttempts } from '../../src/instrumentation/tool-call/attempts';
import { useAdapterTestBed } from '../helpers/test-bed';

// Loaded after the instrumentation is enabled, so require-in-the-middle patches them.
const load = createRequire(__filename);

/**
 * LangGraph's own retries: a tools node with a `RetryPolicy` (and `handleToolErrors: false`) reruns
 * the node after a tool threw, with `executionInfo.nodeAttempt` counting the runs. The tool that
 * failed gets an attempt of it, numbered as LangGraph numbers it; a tool of the same node that
 * succeeded the first time runs again, and is no attempt.
 */
describe("LangGraph: a node's RetryPolicy reruns are attempts of the failed call", function () {
  this.timeout(60_000);
  const bed = useAdapterTestBed();
  let spans: ReadableSpan[];
  let answer: string;

  before(async () => {
    toolCallAttempts.clear();
    const { StateGraph, MessagesAnnotation, START, END } = load('@langchain/langgraph');
    const { ToolNode } = load('@langchain/langgraph/prebuilt');
    const { AIMessage } = load('@langchain/core/messages');
    const { tool } = load('@langchain/core/tools');
    const { z } = load('zod');
    let weatherCalls = 0;
    const weather = tool(
      async ({ city }: { city: string }) => {
        if (weatherCalls++ < 2) throw Object.assign(new Error('Service Unavailable'), { status: 503 });
        return `sunny in ${city}`;
      },
      { name: 'weather', description: 'Current weather', schema: z.object({ city: z.string() }) },
    );
    const clock = tool(async () => '12:00', { name: 'clock', description: 'The time', schema: z.object({}) });
    const toolCalls = [
      { id: 'c1', name: 'weather', args: { city: 'Lyon' }, type: 'tool_call' },
      { id: 'c2', name: 'clock', args: {}, type: 'tool_call' },
    ];
    const graph = new StateGraph(MessagesAnnotation)
      .addNode('model', (state: { messages: unknown[] }) =>
        state.messages.length > 1
          ? { messages: [new AIMessage('done')] }
          : { messages: [new AIMessage({ content: '', tool_calls: toolCalls })] },
      )
      .addNode('tools', new ToolNode([weather, clock], { handleToolErrors: false }), {
        retryPolicy: { maxAttempts: 3, initialInterval: 5, jitter: false, logWarning: false },
      })
      .addEdge(START, 'model')
      .addConditionalEdges('model', (state: { messages: { tool_calls?: unknown[] }[] }) =>
        state.messages[state.messages.length - 1]!.tool_calls?.length ? 'tools' : END,
      )
      .addEdge('tools', 'model')
      .compile();
    const result = await bed.tracing.tracer.startActiveSpan('agent run', async (span) => {
      try {
        return await graph.invoke({ messages: [{ role: 'user', content: 'weather?' }] });
      } finally {
        span.end();
      }
    });
    answer = result.messages[result.messages.length - 1].content;
    spans = bed.tracing.spans().filter((span) => span.name.startsWith('execute_tool '));
  });

  it('runs as it does untraced', () => {
    expect(answer).to.equal('done');
  });

  it('the failed tool: attempts 2 and 3, each linked to the run before, the last recovering the 503', () => {
    const weather = spans.filter((span) => span.attributes['gen_ai.tool.name'] === 'weather');
    expect(weather.map((span) => span.attributes['tool.call.attempt'])).to.deep.equal([undefined, 2, 3]);
    expect(weather.map((span) => span.attributes['error.type'])).to.deep.equal(['503', '503', undefined]);
    expect(weather[1]!.links[0]!.context.spanId).to.equal(weather[0]!.spanContext().spanId);
    expect(weather[2]!.links[0]!.context.spanId).to.equal(weather[1]!.spanContext().spanId);
    expect(weather[2]!.attributes['tool.call.recovered_error_type']).to.equal('503');
  });

  it('the tool that succeeded, rerun with its node, is no attempt', () => {
    const clock = spans.filter((span) => span.attributes['gen_ai.tool.name'] === 'clock');
    expect(clock).to.have.length(3);
    for (const span of clock) {
      expect(span.attributes['tool.call.attempt']).to.equal(undefined);
      expect(span.links).to.deep.equal([]);
    }
  });
});
