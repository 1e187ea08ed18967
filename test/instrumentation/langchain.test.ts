import { createRequire } from 'node:module';
import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { expect } from 'chai';
import { z } from 'zod';
import { expectExecuteToolSpan, underAgentSpan } from '../helpers/agent-span';
import { describeAdapterConformance, type ConformanceTool } from '../helpers/adapter-conformance';
import { useAdapterTestBed } from '../helpers/test-bed';
import {
  callApi,
  callApiWithOwnDeadline,
  errorOf,
  executedFailure,
  unexecutedFailure,
} from '../helpers/tool-failures';

// Loaded after the instrumentation is enabled, so require-in-the-middle patches them.
const load = createRequire(__filename);

interface LcTool {
  name: string;
  invoke(input: unknown, config?: unknown): Promise<unknown>;
}

describe('LangChain adapter (@langchain/core tools, LangGraph ToolNode)', () => {
  const bed = useAdapterTestBed();
  let tools: Record<string, any>;
  let fetchPath: LcTool;
  let StructuredTool: { prototype: { call: { __wrapped?: boolean; __original?: unknown } } };
  let AIMessage: new (fields: unknown) => unknown;
  // LangGraph is loaded by the ToolNode specs only: the version matrix runs the conformance specs
  // on @langchain/core releases older than the LangGraph of the checkout accepts.
  const toolNode = (tools: LcTool[]) => {
    const { ToolNode } = load('@langchain/langgraph/prebuilt') as {
      ToolNode: new (tools: LcTool[]) => { invoke(state: unknown): Promise<{ messages: unknown[] }> };
    };
    return new ToolNode(tools);
  };

  before(async function () {
    // Loading the framework takes seconds, more on a loaded machine.
    this.timeout(180_000);
    tools = load('@langchain/core/tools');
    ({ StructuredTool } = tools);
    ({ AIMessage } = load('@langchain/core/messages'));
    fetchPath = tools.tool(async ({ path }: { path: string }) => callApi(bed.server.url + path), {
      name: 'fetch_path',
      description: 'GETs a path on the test API',
      schema: z.object({ path: z.string() }),
    });
  });

  const underAgent = <T>(run: () => Promise<T>) => underAgentSpan(bed.tracing.tracer, run);

  const toolSpan = (name: string, agent: Span) => expectExecuteToolSpan(bed.tracing, name, agent);

  /** A driver that builds the conformance tool with `build` and invokes it under an agent span. */
  const invoking = (build: (tool: ConformanceTool) => LcTool) => ({
    describesTool: true,
    async call(tool: ConformanceTool) {
      const { value, error, agent } = await underAgent(() => build(tool).invoke(tool.input));
      return { span: toolSpan(tool.name, agent), answer: { value, error } };
    },
    // The original error is rethrown, the value returned.
    expectFailureAnswer: (answer: unknown, thrown: unknown) =>
      expect((answer as { error: unknown }).error).to.equal(thrown),
    expectSuccessAnswer: (answer: unknown, returned: string) =>
      expect((answer as { value: unknown }).value).to.equal(returned),
  });
  const schema = z.object({ path: z.string() });

  describe('tool()', () => {
    describeAdapterConformance(
      invoking(({ name, description, execute }) => tools.tool(execute, { name, description, schema })),
    );
  });

  describe('DynamicStructuredTool', () => {
    describeAdapterConformance(
      invoking(
        ({ name, description, execute }) =>
          new tools.DynamicStructuredTool({ name, description, schema, func: execute }),
      ),
    );
  });

  it('takes the call id from a tool_call input', async () => {
    const { value, agent } = await underAgent(() =>
      fetchPath.invoke({ type: 'tool_call', id: 'call_7', name: 'fetch_path', args: { path: '/ok' } }),
    );
    expect((value as { tool_call_id?: string }).tool_call_id).to.equal('call_7');
    const span = toolSpan('fetch_path', agent);
    expect(span.attributes['gen_ai.tool.call.id']).to.equal('call_7');
    expect(span.status.code).to.equal(SpanStatusCode.UNSET);
  });

  it('a Zod input error (ToolInputParsingException) is invalid_input, not executed', async () => {
    const { error, agent } = await underAgent(() => fetchPath.invoke({ path: 42 }));
    expect((error as Error).constructor.name).to.equal('ToolInputParsingException');
    expect(errorOf(toolSpan('fetch_path', agent))).to.deep.equal(
      unexecutedFailure('ToolInputParsingException', 'invalid_input'),
    );
  });

  it('LangGraph ToolNode: the span keeps the original error although the node returns a ToolMessage', async () => {
    const node = toolNode([fetchPath]);
    const message = new AIMessage({
      content: '',
      tool_calls: [{ id: 'call_42', name: 'fetch_path', args: { path: '/503' }, type: 'tool_call' }],
    });
    const { value, agent } = await underAgent(() => node.invoke({ messages: [message] }));
    const [reply] = (value as { messages: Array<{ status?: string; content?: string }> }).messages;
    expect(reply!.status).to.equal('error');
    expect(reply!.content).to.match(/GET \/503 failed/);
    // ToolNode runs the tool under its own runnable context, which keeps the active span.
    const span = bed.tracing.span('execute_tool fetch_path');
    expect(span.parentSpanContext?.spanId).to.equal(agent.spanContext().spanId);
    expect(span.attributes['gen_ai.tool.call.id']).to.equal('call_42');
    expect(errorOf(span)).to.deep.equal(executedFailure('503', 'transient'));
    const [exception] = span.events.filter((e) => e.name === 'exception');
    expect(exception?.attributes?.['exception.message']).to.equal('GET [REDACTED] failed');
  });

  it('LangGraph ToolNode: an unknown tool never reaches a tool, so the adapter adds no span', async () => {
    const node = toolNode([fetchPath]);
    const message = new AIMessage({
      content: '',
      tool_calls: [{ id: 'call_9', name: 'nope', args: {}, type: 'tool_call' }],
    });
    const { value } = await underAgent(() => node.invoke({ messages: [message] }));
    expect((value as { messages: Array<{ status?: string }> }).messages[0]!.status).to.equal('error');
    expect(bed.tracing.spans().map((s) => s.name)).to.deep.equal(['agent']);
  });

  // The tool's own client aborts its request with no reason at its deadline: the same bare
  // AbortError as a cancel, told apart by the signal of the RunnableConfig the tool was given.
  describe("a thrown abort, read against the config's abort signal", () => {
    let slowApi: LcTool;
    before(() => {
      slowApi = tools.tool(
        async ({ deadlineMs }: { deadlineMs: number }, config: { signal?: AbortSignal }) =>
          callApiWithOwnDeadline(`${bed.server.url}/hang`, deadlineMs, config?.signal),
        {
          name: 'slow_api',
          description: 'Calls an API that never answers',
          schema: z.object({ deadlineMs: z.number() }),
        },
      );
    });

    it("the tool's own client deadline, the signal not aborted -> timeout", async () => {
      const signal = new AbortController().signal;
      const { error, agent } = await underAgent(() => slowApi.invoke({ deadlineMs: 50 }, { signal }));
      expect((error as Error).name).to.equal('AbortError');
      expect(errorOf(toolSpan('slow_api', agent))).to.deep.equal(executedFailure('timeout', 'timeout'));
    });

    it('the caller aborts the signal -> canceled', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50).unref();
      const { error, agent } = await underAgent(() =>
        slowApi.invoke({ deadlineMs: 10_000 }, { signal: controller.signal }),
      );
      expect((error as Error).name).to.equal('AbortError');
      expect(errorOf(toolSpan('slow_api', agent))).to.deep.equal(unexecutedFailure('AbortError', 'canceled'));
    });

    it("LangGraph ToolNode: the tool's own client deadline under the graph's signal -> timeout", async () => {
      const node = toolNode([slowApi]) as unknown as {
        invoke(state: unknown, config: unknown): Promise<{ messages: Array<{ status?: string }> }>;
      };
      const message = new AIMessage({
        content: '',
        tool_calls: [{ id: 'call_5', name: 'slow_api', args: { deadlineMs: 50 }, type: 'tool_call' }],
      });
      const signal = new AbortController().signal;
      const { value } = await underAgent(() => node.invoke({ messages: [message] }, { signal }));
      expect((value as { messages: Array<{ status?: string }> }).messages[0]!.status).to.equal('error');
      const span = bed.tracing.span('execute_tool slow_api');
      expect(errorOf(span)).to.deep.equal(executedFailure('timeout', 'timeout'));
    });

    it('LangGraph ToolNode: the caller aborts the signal the graph runs under -> canceled', async () => {
      const node = toolNode([slowApi]) as unknown as {
        invoke(state: unknown, config: unknown): Promise<unknown>;
      };
      const message = new AIMessage({
        content: '',
        tool_calls: [{ id: 'call_6', name: 'slow_api', args: { deadlineMs: 10_000 }, type: 'tool_call' }],
      });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50).unref();
      await underAgent(() => node.invoke({ messages: [message] }, { signal: controller.signal }));
      const span = bed.tracing.span('execute_tool slow_api');
      expect(errorOf(span)).to.deep.equal(unexecutedFailure('AbortError', 'canceled'));
    });
  });

  it('unpatches on disable and patches once again on enable', async () => {
    const original = StructuredTool.prototype.call.__original;
    expect(StructuredTool.prototype.call.__wrapped).to.equal(true);
    bed.instrumentation.disable();
    expect(StructuredTool.prototype.call).to.equal(original);
    await fetchPath.invoke({ path: '/ok' });
    expect(bed.tracing.spans()).to.have.length(0);
    bed.instrumentation.enable();
    expect(StructuredTool.prototype.call.__original).to.equal(original);
    await fetchPath.invoke({ path: '/ok' });
    expect(bed.tracing.spans()).to.have.length(1);
  });
});
