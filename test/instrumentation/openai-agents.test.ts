import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { SpanKind, SpanStatusCode, context, trace } from '@opentelemetry/api';
import type * as AgentsCore from '@openai/agents-core';
import type * as AgentsTesting from '@openai/agents-core/testing';
import { expect } from 'chai';
import * as semver from 'semver';
import { z } from 'zod';
import { describeAdapterConformance } from '../helpers/adapter-conformance';
import { installedVersion } from '../helpers/installed-version';
import { useAdapterTestBed } from '../helpers/test-bed';
import {
  callApiWithOwnDeadline,
  errorOf,
  executedFailure,
  unexecutedFailure,
} from '../helpers/tool-failures';

const load = createRequire(__filename);

/**
 * Loads a fresh copy of the package after the instrumentation is enabled, as an app that starts
 * tracing first does: other test files import it at load time, and require-in-the-middle only sees
 * `dist/tool.js` (the patched file) when the package root first requires it.
 */
function loadFresh<T>(id: string): T {
  const dist = dirname(load.resolve('@openai/agents-core'));
  for (const key of Object.keys(load.cache)) if (key.startsWith(dist)) delete load.cache[key];
  return load(id) as T;
}

type FunctionTool = Extract<AgentsCore.Tool, { type: 'function' }>;

type Testing = Pick<typeof AgentsTesting, 'ScriptedModel' | 'functionCall' | 'assistantMessage'>;

/**
 * The SDK's own `ScriptedModel` (`@openai/agents-core/testing`, from 0.16.0). Earlier releases,
 * which the version matrix tests too, have none: there a model answering with the same scripted
 * items stands in, through the SDK's `Model` interface (`getResponse`).
 */
function scriptedModels(agents: typeof AgentsCore): Testing {
  try {
    return load('@openai/agents-core/testing') as Testing;
  } catch (err) {
    if ((err as { code?: unknown }).code !== 'ERR_PACKAGE_PATH_NOT_EXPORTED') throw err;
  }
  // Their Runner asks for a default model provider when it is made, even if every agent has its
  // own model (as here).
  agents.setDefaultModelProvider({
    getModel: () => Promise.reject(new Error('every agent of these specs has its own model')),
  });
  class ScriptedModel {
    private turn = 0;
    constructor(private readonly turns: unknown[][]) {}
    async getResponse() {
      const output = this.turns[this.turn++];
      if (!output) throw new Error('no scripted turn left');
      return { usage: new agents.Usage(), output, responseId: `resp_${this.turn}` };
    }
    getStreamedResponse(): never {
      throw new Error('the specs run the agent without streaming');
    }
  }
  return {
    ScriptedModel: ScriptedModel as unknown as Testing['ScriptedModel'],
    functionCall: ((name: string, args: unknown, { callId }: { callId: string }) => ({
      type: 'function_call',
      name,
      callId,
      id: callId,
      status: 'completed',
      arguments: typeof args === 'string' ? args : JSON.stringify(args),
    })) as Testing['functionCall'],
    assistantMessage: ((text: string) => ({
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text }],
    })) as Testing['assistantMessage'],
  };
}

const DEFAULT_ERROR_TEXT = 'An error occurred while running the tool. Please try again.';

describe('OpenAI Agents adapter (@openai/agents-core Runner + ScriptedModel)', () => {
  const bed = useAdapterTestBed();
  let agents: typeof AgentsCore;
  let testing: Testing;
  let fetchPath: FunctionTool;
  let slowFetch: FunctionTool;
  let strictFetch: FunctionTool;

  before(async function () {
    // Loading the framework takes seconds, more on a loaded machine.
    this.timeout(180_000);
    agents = loadFresh('@openai/agents-core');
    testing = scriptedModels(agents);
    agents.setTracingDisabled(true);

    const get = async (path: string, signal?: AbortSignal) => {
      const res = await fetch(bed.server.url + path, { signal });
      if (!res.ok) throw new Error(`GET ${path} failed`, { cause: res });
      return res.text();
    };
    fetchPath = agents.tool({
      name: 'fetch_path',
      description: 'GETs a path on the test API',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }, _runContext, details) => get(path, details?.signal),
    });
    slowFetch = agents.tool({
      name: 'slow_fetch',
      description: 'GETs a path that never answers',
      parameters: z.object({}),
      timeoutMs: 50,
      execute: (_input, _runContext, details) => get('/hang', details?.signal),
    });
    strictFetch = agents.tool({
      name: 'strict_fetch',
      description: 'GETs a path; errors reach the runner',
      parameters: z.object({ path: z.string() }),
      errorFunction: null,
      execute: ({ path }) => get(path),
    });
  });

  /** Runs an agent whose model calls `name(args)` once, then answers; returns the tool span. */
  async function runToolCall(
    tool: FunctionTool,
    args: Record<string, unknown> | string,
    runOptions: { signal?: AbortSignal } = {},
  ) {
    const model = new testing.ScriptedModel([
      [testing.functionCall(tool.name, args, { callId: 'call_1' })],
      [testing.assistantMessage('done')],
    ]);
    const agent = new agents.Agent({ name: 'tester', instructions: 'test', model, tools: [tool] });
    const parent = bed.tracing.tracer.startSpan('agent');
    const outcome = await context
      .with(trace.setSpan(context.active(), parent), () =>
        new agents.Runner({ tracingDisabled: true }).run(agent, 'go', runOptions),
      )
      .then(
        (result) => ({ result, error: undefined }),
        (error: unknown) => ({ result: undefined, error }),
      );
    parent.end();
    const span = bed.tracing.span(`execute_tool ${tool.name}`);
    expect(span.kind).to.equal(SpanKind.INTERNAL);
    expect(span.parentSpanContext?.spanId).to.equal(parent.spanContext().spanId);
    expect(span.attributes['gen_ai.operation.name']).to.equal('execute_tool');
    expect(span.attributes['gen_ai.tool.name']).to.equal(tool.name);
    expect(span.attributes['gen_ai.tool.call.id']).to.equal('call_1');
    expect(span.attributes['gen_ai.tool.type']).to.equal('function');
    expect(span.attributes['gen_ai.tool.description']).to.equal(tool.description);
    const outputs = (outcome.result?.newItems ?? []).filter((item) => item.type === 'tool_call_output_item');
    const toolOutput = outputs.map((item) => (item as { output?: unknown }).output)[0];
    return { ...outcome, span, toolOutput };
  }

  /** Runs an agent whose model calls `tool(args)` once; returns what the tool gave the model. */
  async function runAgentOnly(tool: FunctionTool, args: Record<string, unknown>) {
    const model = new testing.ScriptedModel([
      [testing.functionCall(tool.name, args, { callId: 'call_1' })],
      [testing.assistantMessage('done')],
    ]);
    const agent = new agents.Agent({ name: 'tester', instructions: 'test', model, tools: [tool] });
    const result = await new agents.Runner({ tracingDisabled: true }).run(agent, 'go');
    const output = result.newItems.find((item) => item.type === 'tool_call_output_item');
    return (output as { output?: unknown } | undefined)?.output;
  }

  describeAdapterConformance({
    describesTool: true,
    async call({ name, description, input, execute }) {
      const tool = agents.tool({ name, description, parameters: z.object({ path: z.string() }), execute });
      const { span, toolOutput } = await runToolCall(tool, { ...input });
      return { span, answer: toolOutput };
    },
    // The model gets the default error text for any error (before 0.19.0 followed by the error),
    // and the result as the tool returned it.
    expectFailureAnswer: (output, thrown) =>
      expect(output).to.equal(
        semver.gte(installedVersion(load, '@openai/agents-core'), '0.19.0')
          ? DEFAULT_ERROR_TEXT
          : `${DEFAULT_ERROR_TEXT} Error: ${String(thrown)}`,
      ),
    expectSuccessAnswer: (output, returned) => expect(output).to.equal(returned),
  });

  it("classifies the SDK's timeout as timeout, not the abort error the tool then throws", async () => {
    const { span, toolOutput } = await runToolCall(slowFetch, {});
    expect(toolOutput).to.equal("Tool 'slow_fetch' timed out after 50ms.");
    expect(errorOf(span)).to.deep.equal(executedFailure('timeout', 'timeout'));
  });

  // The tool's own client aborts its request with no reason at its deadline: the same bare
  // AbortError as a cancel, told apart by the signal the runner hands the tool (`details.signal`),
  // the run's from 0.14.0. Before, the tool gets none and a bare abort stays canceled.
  describe("a thrown abort, read against the run's abort signal", () => {
    let slowApi: FunctionTool;
    let runnerHandsSignal: boolean;
    before(() => {
      runnerHandsSignal = semver.gte(installedVersion(load, '@openai/agents-core'), '0.14.0');
      slowApi = agents.tool({
        name: 'slow_api',
        description: 'Calls an API that never answers',
        parameters: z.object({ deadlineMs: z.number() }),
        execute: ({ deadlineMs }, _runContext, details) =>
          callApiWithOwnDeadline(`${bed.server.url}/hang`, deadlineMs, details?.signal),
      });
    });

    it("the tool's own client deadline, the run's signal not aborted -> timeout (canceled before 0.14.0)", async () => {
      const signal = new AbortController().signal;
      const { span } = await runToolCall(slowApi, { deadlineMs: 50 }, { signal });
      expect(errorOf(span)).to.deep.equal(
        runnerHandsSignal
          ? executedFailure('timeout', 'timeout')
          : unexecutedFailure('AbortError', 'canceled'),
      );
    });

    it('the caller aborts the signal given to run() -> canceled (skipped before 0.14.0, whose run signal never reaches the tool)', async function () {
      if (!runnerHandsSignal) this.skip(); // before 0.14.0: nothing to cancel the tool with
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50).unref();
      const { span } = await runToolCall(slowApi, { deadlineMs: 10_000 }, { signal: controller.signal });
      expect(errorOf(span)).to.deep.equal(unexecutedFailure('AbortError', 'canceled'));
    });
  });

  it('classifies input that fails the schema as invalid_input, not executed', async () => {
    const before = bed.server.requestCount();
    const { span, toolOutput } = await runToolCall(fetchPath, { path: 42 });
    expect(toolOutput).to.equal(DEFAULT_ERROR_TEXT);
    expect(bed.server.requestCount()).to.equal(before);
    expect(errorOf(span)).to.deep.equal(unexecutedFailure('InvalidToolInputError', 'invalid_input'));
  });

  it('arguments that are not JSON never reach the tool: the runner answers, no tool span (known limit)', async () => {
    const model = new testing.ScriptedModel([
      [testing.functionCall('fetch_path', '{"path": ', { callId: 'call_1' })],
      [testing.assistantMessage('done')],
    ]);
    const agent = new agents.Agent({ name: 'tester', instructions: 'test', model, tools: [fetchPath] });
    const result = await new agents.Runner({ tracingDisabled: true }).run(agent, 'go');
    const output = result.newItems.find((item) => item.type === 'tool_call_output_item') as {
      output?: unknown;
    };
    expect(output.output).to.match(/error occurred while parsing tool arguments/);
    expect(bed.tracing.spans().filter((s) => s.name.startsWith('execute_tool'))).to.have.length(0);
  });

  it('with errorFunction: null, the same error reaches the runner and the span', async () => {
    const { error, span } = await runToolCall(strictFetch, { path: '/503' });
    expect(error).to.be.an('error');
    expect(errorOf(span)).to.include({ type: '503', kind: 'transient', status: SpanStatusCode.ERROR });
  });

  it('asks the run context about a rejection only for calls the runner did not run', async () => {
    // From 0.20 the question, asked with a plain tool name, costs the SDK a thrown SyntaxError
    // (5 to 9 µs); asked for every call it was the largest part of what a tool call paid.
    const proto = agents.RunContext.prototype as unknown as { isToolApproved: (...a: unknown[]) => unknown };
    const original = proto.isToolApproved;
    const asked: unknown[] = [];
    proto.isToolApproved = function (this: unknown, approval: unknown, ...rest: unknown[]) {
      // The runner's own questions name the agent; the adapter's do not.
      if (!(approval as { agent?: unknown }).agent) asked.push(approval);
      return original.call(this, approval, ...rest);
    };
    try {
      const { span } = await runToolCall(fetchPath, { path: '/ok' });
      expect(span.status.code).to.equal(SpanStatusCode.UNSET);
    } finally {
      proto.isToolApproved = original;
    }
    expect(asked, 'questions without an agent').to.deep.equal([]);
  });

  it('an unknown tool fails the whole run before any tool runs: no tool span', async () => {
    const model = new testing.ScriptedModel([
      [testing.functionCall('no_such_tool', {}, { callId: 'call_x' })],
    ]);
    const agent = new agents.Agent({ name: 'tester', instructions: 'test', model, tools: [fetchPath] });
    const error = await new agents.Runner({ tracingDisabled: true }).run(agent, 'go').then(
      () => undefined,
      (err: unknown) => err,
    );
    expect(error).to.be.instanceOf(agents.ModelBehaviorError);
    expect(bed.tracing.spans().filter((s) => s.name.startsWith('execute_tool'))).to.have.length(0);
  });

  it('keeps what tool() builds: name from the execute function, invoke result, parameters', async () => {
    const namedByFunction = agents.tool({
      description: 'named after its function',
      parameters: z.object({}),
      execute: async function lookup_answer() {
        return 42;
      },
    });
    expect(namedByFunction.name).to.equal('lookup_answer');
    expect(namedByFunction.parameters).to.deep.include({ type: 'object' });
    const { span, toolOutput } = await runToolCall(namedByFunction, {});
    expect(toolOutput).to.equal(42);
    expect(span.status.code).to.equal(SpanStatusCode.UNSET);
  });

  it('unpatches on disable; after enable, tools made meanwhile are judged by the SDK texts', async () => {
    bed.instrumentation.disable();
    const early = agents.tool({
      name: 'early',
      description: 'made while the instrumentation was off',
      parameters: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        const res = await fetch(bed.server.url + path);
        if (!res.ok) throw new Error(`GET ${path} failed`);
        return res.text();
      },
    });
    const slowEarly = agents.tool({
      name: 'slow_early',
      description: 'made while the instrumentation was off',
      parameters: z.object({}),
      timeoutMs: 30,
      execute: () => new Promise<string>((resolve) => setTimeout(() => resolve('late'), 300)),
    });
    const untraced = await runAgentOnly(early, { path: '/500' });
    expect(untraced).to.equal(DEFAULT_ERROR_TEXT);
    expect(bed.tracing.spans()).to.have.length(0);

    bed.instrumentation.enable();
    const { span, toolOutput } = await runToolCall(early, { path: '/500' });
    expect(toolOutput).to.equal(DEFAULT_ERROR_TEXT);
    expect(errorOf(span)).to.deep.equal(executedFailure('tool_error', 'tool_error'));
    bed.tracing.reset();
    const slow = await runToolCall(slowEarly, {});
    expect(slow.toolOutput).to.equal("Tool 'slow_early' timed out after 30ms.");
    expect(errorOf(slow.span)).to.include({ type: 'timeout', kind: 'timeout' });
  });
});
