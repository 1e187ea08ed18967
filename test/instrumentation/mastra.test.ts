import { createRequire } from 'node:module';
import { SpanStatusCode, type Span } from '@opentelemetry/api';
import type * as MastraAgent from '@mastra/core/agent';
import type * as MastraErrors from '@mastra/core/error';
import type * as MastraTools from '@mastra/core/tools';
import type * as MastraWorkflows from '@mastra/core/workflows';
import type * as AiTest from 'ai/test';
import { expect } from 'chai';
import * as semver from 'semver';
import { z } from 'zod';
import { classifyToolError } from '../../src';
import { expectExecuteToolSpan, underAgentSpan } from '../helpers/agent-span';
import { describeAdapterConformance } from '../helpers/adapter-conformance';
import { installedVersion } from '../helpers/installed-version';
import { useAdapterTestBed } from '../helpers/test-bed';
import {
  callApiWithOwnDeadline,
  errorOf,
  executedFailure,
  unexecutedFailure,
} from '../helpers/tool-failures';

// Loaded after the instrumentation is enabled, so require-in-the-middle patches `dist/tools/index.cjs`.
const load = createRequire(__filename);

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

interface ModelToolCall {
  toolCallId: string;
  toolName: string;
  input: unknown;
}

describe('Mastra adapter (@mastra/core Agent + the AI SDK MockLanguageModelV3)', () => {
  const bed = useAdapterTestBed();
  let Agent: typeof MastraAgent.Agent;
  let tools: typeof MastraTools;
  let workflows: typeof MastraWorkflows;
  let MockModel: typeof AiTest.MockLanguageModelV3;
  let fetchPath: MastraTools.Tool;

  before(async function () {
    // Loading the framework takes seconds, more on a loaded machine.
    this.timeout(180_000);
    tools = load('@mastra/core/tools');
    ({ Agent } = load('@mastra/core/agent'));
    workflows = load('@mastra/core/workflows');
    // The AI SDK's mock model (Mastra takes AI SDK models): Mastra's own test-utils mock cannot be
    // required in some releases (their CommonJS build requires vitest, which refuses require()).
    ({ MockLanguageModelV3: MockModel } = load('ai/test'));

    fetchPath = tools.createTool({
      id: 'fetch_path',
      description: 'GETs a path on the test API',
      inputSchema: z.object({ path: z.string() }),
      outputSchema: z.object({ body: z.string() }),
      execute: async ({ path }) => {
        const res = await fetch(bed.server.url + path);
        if (!res.ok) throw new Error(`GET ${path} failed`, { cause: res });
        return { body: await res.text() };
      },
    }) as MastraTools.Tool;
  });

  /** A model that calls the given tools once, then answers; it records what the tools returned. */
  function scriptedModel(calls: ModelToolCall[]) {
    const toolResults: unknown[] = [];
    let step = 0;
    const model = new MockModel({
      doGenerate: async (options) => {
        step++;
        if (step === 1) {
          return {
            warnings: [],
            usage,
            finishReason: { unified: 'tool-calls', raw: undefined },
            content: calls.map((call) => ({ type: 'tool-call', ...call, input: JSON.stringify(call.input) })),
          } as never;
        }
        for (const message of options.prompt) {
          if (message.role === 'tool') toolResults.push(...message.content.map((part) => part));
        }
        return {
          warnings: [],
          usage,
          finishReason: { unified: 'stop', raw: undefined },
          content: [{ type: 'text', text: 'done' }],
        } as never;
      },
    });
    return { model, toolResults };
  }

  /** Runs an agent (under a parent span) whose model calls `toolName` with `input`. */
  async function runAgent(input: unknown, toolName = 'fetch_path', agentTools = { fetch_path: fetchPath }) {
    const { model, toolResults } = scriptedModel([{ toolCallId: 'call_1', toolName, input }]);
    const agent = new Agent({ id: 'tester', name: 'tester', instructions: 'test', model, tools: agentTools });
    const { value: result, agent: parent } = await underAgentSpan(bed.tracing.tracer, () =>
      agent.generate('go'),
    );
    expect(result.text).to.equal('done');
    return { parent, toolResult: toolResults[0] as { output?: { type?: string; value?: unknown } } };
  }

  const toolSpan = (parent: Span, name = 'fetch_path') =>
    expectExecuteToolSpan(bed.tracing, name, parent, { 'gen_ai.tool.call.id': 'call_1' });

  describeAdapterConformance({
    describesTool: true,
    async call({ name, description, input, execute }) {
      const tool = tools.createTool({
        id: name,
        description,
        inputSchema: z.object({ path: z.string() }),
        execute: (input) => execute(input),
      }) as MastraTools.Tool;
      const { parent, toolResult } = await runAgent(input, name, { [name]: tool } as never);
      return { span: toolSpan(parent, name), answer: toolResult.output };
    },
    // The agent hands the model the error's message (as error-text from 1.57.0, as text from
    // 1.5.0, before that the MastraError as JSON), and a string result as text.
    expectFailureAnswer: (output, thrown) => {
      const { message } = thrown as Error;
      const version = installedVersion(load, '@mastra/core');
      if (semver.gte(version, '1.57.0')) expect(output).to.deep.equal({ type: 'error-text', value: message });
      else if (semver.gte(version, '1.5.0')) expect(output).to.deep.equal({ type: 'text', value: message });
      else {
        const { type, value } = output as { type: string; value: string };
        expect(type).to.equal('json');
        expect(JSON.parse(value)).to.include({ message, code: 'TOOL_EXECUTION_FAILED' });
      }
    },
    expectSuccessAnswer: (output, returned) =>
      expect(output).to.deep.equal({ type: 'text', value: returned }),
  });

  // The tool's own client aborts its request with no reason at its deadline: the same bare
  // AbortError as a cancel, told apart by the `abortSignal` Mastra hands the tool in its context.
  describe("a thrown abort, read against the agent call's abort signal", () => {
    let slowApi: MastraTools.Tool;
    before(() => {
      slowApi = tools.createTool({
        id: 'slow_api',
        description: 'Calls an API that never answers',
        inputSchema: z.object({ deadlineMs: z.number() }),
        execute: async ({ deadlineMs }, context) => ({
          body: await callApiWithOwnDeadline(`${bed.server.url}/hang`, deadlineMs, context?.abortSignal),
        }),
      }) as MastraTools.Tool;
    });

    /** Runs an agent whose model calls `slow_api` once, with `abortSignal` given to `generate`. */
    async function runSlowApi(deadlineMs: number, abortSignal: AbortSignal) {
      const { model } = scriptedModel([
        { toolCallId: 'call_1', toolName: 'slow_api', input: { deadlineMs } },
      ]);
      const agent = new Agent({
        id: 'tester',
        name: 'tester',
        instructions: 'test',
        model,
        tools: { slow_api: slowApi },
      });
      const { agent: parent } = await underAgentSpan(bed.tracing.tracer, () =>
        agent.generate('go', { abortSignal }),
      );
      return toolSpan(parent, 'slow_api');
    }

    it("the tool's own client deadline, the signal not aborted -> timeout", async () => {
      const span = await runSlowApi(50, new AbortController().signal);
      expect(errorOf(span)).to.deep.equal(executedFailure('timeout', 'timeout'));
    });

    it('the caller aborts the signal given to generate -> canceled', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50).unref();
      const span = await runSlowApi(10_000, controller.signal);
      expect(errorOf(span)).to.deep.equal(unexecutedFailure('AbortError', 'canceled'));
    });
  });

  it("classifies the tool's returned input-validation result as invalid_input, not executed", async () => {
    const before = bed.server.requestCount();
    const result = (await fetchPath.execute!({ path: 42 } as never, undefined as never)) as Record<
      string,
      unknown
    >;
    expect(result).to.include({ error: true });
    expect(result.validationErrors).to.be.an('object');
    expect(bed.server.requestCount()).to.equal(before);
    const span = bed.tracing.span('execute_tool fetch_path');
    expect(errorOf(span)).to.deep.equal(unexecutedFailure('tool_error', 'invalid_input'));
  });

  it('traces tools run as workflow steps (createStep(tool))', async () => {
    const step = workflows.createStep(fetchPath as never);
    const workflow = workflows
      .createWorkflow({ id: 'fetch', inputSchema: z.object({ path: z.string() }), outputSchema: z.any() })
      .then(step)
      .commit();
    const run = await workflow.createRun();
    const result = await run.start({ inputData: { path: '/404' } });
    expect(result.status).to.equal('failed');
    const span = bed.tracing.span('execute_tool fetch_path');
    expect(span.attributes['gen_ai.tool.call.id']).to.equal(undefined);
    expect(errorOf(span)).to.include({ type: '404', kind: 'permanent', status: SpanStatusCode.ERROR });
  });

  it('unknown tools and agent-side input validation never reach execute: no tool span (known limits)', async () => {
    const { toolResult: unknown } = await runAgent({}, 'no_such_tool');
    expect(String(unknown.output?.value)).to.match(/not found/);
    const { toolResult: invalid } = await runAgent({ path: 42 });
    expect(invalid.output?.value).to.deep.include({ error: true });
    expect(bed.tracing.spans().filter((s) => s.name.startsWith('execute_tool'))).to.have.length(0);
  });

  it('classifies the MastraError TOOL_EXECUTION_FAILED the agent wraps tool errors in, from its cause', async () => {
    const { MastraError } = load('@mastra/core/error') as typeof MastraErrors;
    const cause = await fetch(`${bed.server.url}/429?retryAfter=5`).then(
      (res) => new Error('GET failed', { cause: res }),
    );
    // As the agent's tool builder builds it around what `execute` threw.
    const wrapped = new MastraError(
      {
        id: 'TOOL_EXECUTION_FAILED',
        domain: 'TOOL',
        category: 'USER',
        details: { errorMessage: String(cause) },
      },
      cause,
    );
    expect(classifyToolError(wrapped)).to.include({
      errorType: '429',
      kind: 'rate_limit',
      retryAfterMs: 5000,
    });
  });

  it('keeps the Tool shape: own execute, its arity, id and schemas', () => {
    expect(Object.prototype.hasOwnProperty.call(fetchPath, 'execute')).to.equal(true);
    expect(fetchPath.execute!.length).to.equal(2);
    expect(fetchPath.id).to.equal('fetch_path');
    expect(fetchPath).to.be.instanceOf(tools.Tool);
  });

  it('stops tracing on disable and traces again on enable', async () => {
    bed.instrumentation.disable();
    await fetchPath.execute!({ path: '/500' } as never, undefined as never).catch(() => undefined);
    expect(bed.tracing.spans()).to.have.length(0);
    bed.instrumentation.enable();
    await fetchPath.execute!({ path: '/500' } as never, undefined as never).catch(() => undefined);
    expect(errorOf(bed.tracing.span('execute_tool fetch_path'))).to.include({ type: '500' });
  });
});
