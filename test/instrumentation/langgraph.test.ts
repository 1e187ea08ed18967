import { createRequire } from 'node:module';
import { SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { toolCallAttempts } from '../../src/instrumentation/tool-call/attempts';
import { useAdapterTestBed } from '../helpers/test-bed';

// Loaded after the instrumentation is enabled, so require-in-the-middle patches them.
const load = createRequire(__filename);

/**
 * LangGraph's pauses through the LangChain adapter, in process (the version matrix runs this spec
 * on each listed LangGraph release): a tool that asks a human with `interrupt()` ends paused, its
 * resumed runs are calls of their own, a `Command.PARENT` handoff ends handoff, and a 500 beside
 * them stays a failure. The register's spec (test/register/langgraph-pauses.test.ts) runs the same
 * agent in child processes.
 */
describe('LangGraph pauses and handoffs (through the LangChain adapter)', function () {
  this.timeout(120_000);
  const bed = useAdapterTestBed();
  let spans: ReadableSpan[];
  let output: string;

  before(async function () {
    process.env.FLAKY_URL = bed.server.url;
    const { runLangGraphApprovals } = load('../register/fixtures/langgraph-approvals-run.cjs') as {
      runLangGraphApprovals(modules: Record<string, unknown>): Promise<string>;
    };
    output = await runLangGraphApprovals({
      langgraph: load('@langchain/langgraph'),
      prebuilt: load('@langchain/langgraph/prebuilt'),
      messages: load('@langchain/core/messages'),
      tools: load('@langchain/core/tools'),
      z: load('zod'),
    });
    spans = bed.tracing.spans().filter((span) => span.name.startsWith('execute_tool '));
  });
  after(() => delete process.env.FLAKY_URL);

  const outcomes = (tool: string) =>
    spans
      .filter((span) => span.attributes['gen_ai.tool.name'] === tool)
      .map((span) => ({
        outcome: span.attributes['tool.call.outcome'],
        status: span.status.code,
        type: span.attributes['error.type'],
      }));

  it("runs as it does untraced: each refund pauses, then resumes with the human's answer", () => {
    expect(output).to.contain('refund yes: paused with 1 question');
    expect(output).to.contain('refund no: paused with 1 question');
    expect(output).to.contain('handoff: billing here');
  });

  it('interrupt() ends its span paused, without status ERROR; each resumed run is a call of its own', () => {
    const refunds = outcomes('refund');
    const paused = { outcome: 'paused', status: SpanStatusCode.UNSET, type: undefined };
    const ran = { outcome: undefined, status: SpanStatusCode.UNSET, type: undefined };
    expect(refunds.filter((call) => call.outcome === 'paused')).to.deep.equal([paused, paused]);
    expect(refunds.filter((call) => call.outcome !== 'paused')).to.deep.equal([ran, ran]);
  });

  it('Command.PARENT ends the handing-off tool span handoff', () => {
    expect(outcomes('transfer_to_billing')).to.deep.equal([
      { outcome: 'handoff', status: SpanStatusCode.UNSET, type: undefined },
    ]);
  });

  it('the 500 beside them stays a failure', () => {
    const lookups = outcomes('lookup');
    expect(lookups.length).to.be.greaterThan(0);
    // No HTTP instrumentation here: the tool's plain Error is the evidence (the register's spec has the 500).
    const failed = { outcome: undefined, status: SpanStatusCode.ERROR, type: 'Error' };
    for (const call of lookups) expect(call).to.deep.equal(failed);
  });
});

/**
 * After the pauses, whose bed's instrumentation is the one that holds LangGraph's control flow (it
 * loaded LangGraph first; its internal files are not required again). LangGraph's own retries: a tools node with a `RetryPolicy` (and `handleToolErrors: false`) reruns
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
