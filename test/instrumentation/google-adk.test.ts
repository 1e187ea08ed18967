import { createRequire } from 'node:module';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type * as Adk from '@google/adk';
import { expect } from 'chai';
import { z } from 'zod';
import { describeAdapterConformance } from '../helpers/adapter-conformance';
import { scriptedLlm } from '../helpers/adk';
import { useAdapterTestBed } from '../helpers/test-bed';
import {
  callApiWithOwnDeadline,
  errorOf,
  executedFailure,
  unexecutedFailure,
} from '../helpers/tool-failures';

// Loaded after the instrumentation is enabled, so require-in-the-middle patches it.
const load = createRequire(__filename);

type Part = {
  functionCall?: { id?: string; name?: string };
  functionResponse?: { id?: string; response?: unknown };
};

describe('Google ADK adapter (@google/adk InMemoryRunner + a scripted BaseLlm)', () => {
  // ADK traces through the global provider (its tracer is `trace.getTracer('gcp.vertex.agent')`).
  const bed = useAdapterTestBed({ global: true });
  let adk: typeof Adk;
  let tools: Adk.FunctionTool[];

  before(async function () {
    // Loading ADK's CJS build (hundreds of files and their dependencies) takes about 25 s alone on a
    // busy machine, and passed 60 s late in the whole suite, where every require also runs the
    // module hooks that earlier files' instrumentations left.
    this.timeout(180_000);
    adk = load('@google/adk');

    const fetchPath = new adk.FunctionTool({
      name: 'fetch_path',
      description: 'GETs a path on the test API',
      parameters: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        const res = await fetch(bed.server.url + path);
        if (!res.ok) throw new Error(`GET ${path} failed`, { cause: res });
        return { body: await res.text() };
      },
    });
    const lockedFile = new adk.FunctionTool({
      name: 'locked_file',
      description: 'Reports failure with the ADK result contract',
      parameters: z.object({}),
      execute: () => ({ status: 'error', error_message: 'the file is locked by another process' }),
    });
    const deleteFile = new adk.FunctionTool({
      name: 'delete_file',
      description: 'Needs the user to confirm',
      parameters: z.object({ path: z.string() }),
      requireConfirmation: true,
      execute: () => ({ deleted: true }),
    });
    tools = [fetchPath, lockedFile, deleteFile];
  });

  /** Runs the agent; returns every event's parts and a runner to continue the session. */
  async function runAgent(
    name: string,
    args: Record<string, unknown>,
    agentTools = tools,
    abortSignal?: AbortSignal,
  ) {
    const agent = new adk.LlmAgent({
      name: 'tester',
      model: scriptedLlm(adk, name, args),
      instruction: 'test',
      tools: agentTools,
    });
    const runner = new adk.InMemoryRunner({ agent, appName: 'app' });
    const session = await runner.sessionService.createSession({ appName: 'app', userId: 'user' });
    const errors: string[] = [];
    const send = async (parts: unknown[]) => {
      const received: Part[] = [];
      const newMessage = { role: 'user', parts } as Adk.Event['content'];
      for await (const event of runner.runAsync({
        userId: 'user',
        sessionId: session.id,
        newMessage: newMessage!,
        abortSignal,
      })) {
        received.push(...((event.content?.parts ?? []) as Part[]));
        if (event.errorMessage) errors.push(event.errorMessage);
      }
      return received;
    };
    const parts = await send([{ text: 'go' }]);
    return {
      parts,
      send,
      errors,
      response: parts.find((part) => part.functionResponse)?.functionResponse?.response,
    };
  }

  /** ADK's own `execute_tool {name}` span: the only tool span, enriched rather than duplicated. */
  function adkToolSpan(name: string) {
    const span = bed.tracing.span(`execute_tool ${name}`);
    expect(span.instrumentationScope.name).to.equal('gcp.vertex.agent');
    expect(span.kind).to.equal(SpanKind.INTERNAL);
    const parent = bed.tracing.spans().find((s) => s.spanContext().spanId === span.parentSpanContext?.spanId);
    expect(parent?.instrumentationScope.name).to.equal('gcp.vertex.agent');
    expect(span.attributes['gen_ai.operation.name']).to.equal('execute_tool');
    expect(span.attributes['gen_ai.tool.name']).to.equal(name);
    expect(span.attributes['gen_ai.tool.call.id']).to.equal('fc_1');
    return span;
  }

  describeAdapterConformance({
    describesTool: true,
    async call({ name, description, input, execute }) {
      const tool = new adk.FunctionTool({
        name,
        description,
        parameters: z.object({ path: z.string() }),
        execute,
      });
      const { response } = await runAgent(name, { ...input }, [tool]);
      const span = adkToolSpan(name);
      // ADK's own attributes: it writes the tool's type only on a call that succeeded.
      if (span.status.code === SpanStatusCode.UNSET)
        expect(span.attributes['gen_ai.tool.type']).to.equal('FunctionTool');
      return { span, answer: response };
    },
    // ADK re-throws the tool's error as a plain Error and answers the model with its message.
    expectFailureAnswer: (response, thrown) =>
      expect(response).to.deep.equal({ error: `Error in tool 'call_api': ${(thrown as Error).message}` }),
    expectSuccessAnswer: (response, returned) => expect(response).to.deep.equal({ result: returned }),
  });

  it('classifies arguments that fail the Zod schema as invalid_input, not executed', async () => {
    const before = bed.server.requestCount();
    const { response } = await runAgent('fetch_path', { path: 42 });
    expect(String((response as { error?: unknown }).error)).to.match(/^Error in tool 'fetch_path'/);
    expect(bed.server.requestCount()).to.equal(before);
    expect(errorOf(adkToolSpan('fetch_path'))).to.deep.equal(unexecutedFailure('ZodError', 'invalid_input'));
  });

  it("records the tool's real error as the one exception event on ADK's span, not ADK's re-thrown Error", async () => {
    await runAgent('fetch_path', { path: '/503' });
    const events = adkToolSpan('fetch_path').events.filter((e) => e.name === 'exception');
    expect(events).to.have.length(1);
    expect(events[0]!.attributes!['exception.message']).to.equal('GET [REDACTED] failed'); // the argument value hidden
  });

  // The tool's own client aborts its request with no reason at its deadline: the same bare
  // AbortError as a cancel, told apart by the run's signal ADK hands the tool (`toolContext.abortSignal`).
  describe("a thrown abort, read against the run's abort signal", () => {
    let slowApi: Adk.FunctionTool;
    before(() => {
      slowApi = new adk.FunctionTool({
        name: 'slow_api',
        description: 'Calls an API that never answers',
        parameters: z.object({ deadlineMs: z.number() }),
        execute: async ({ deadlineMs }, toolContext) => ({
          body: await callApiWithOwnDeadline(`${bed.server.url}/hang`, deadlineMs, toolContext?.abortSignal),
        }),
      });
    });

    it("the tool's own client deadline, the run's signal not aborted -> timeout", async () => {
      const { response } = await runAgent(
        'slow_api',
        { deadlineMs: 50 },
        [slowApi],
        new AbortController().signal,
      );
      expect(String((response as { error?: unknown }).error)).to.match(/^Error in tool 'slow_api'/);
      expect(errorOf(adkToolSpan('slow_api'))).to.deep.equal(executedFailure('timeout', 'timeout'));
    });

    it('the caller aborts the signal given to runAsync -> canceled', async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 50).unref();
      await runAgent('slow_api', { deadlineMs: 10_000 }, [slowApi], controller.signal).catch(() => undefined);
      expect(errorOf(adkToolSpan('slow_api'))).to.deep.equal(unexecutedFailure('AbortError', 'canceled'));
    });
  });

  it('marks the returned ADK contract { status: "error" } as tool_error', async () => {
    const { response } = await runAgent('locked_file', {});
    expect(response).to.deep.equal({
      status: 'error',
      error_message: 'the file is locked by another process',
    });
    expect(errorOf(adkToolSpan('locked_file'))).to.deep.equal(executedFailure('tool_error', 'tool_error'));
  });

  /** Asks for the confirmation `delete_file` requires, then answers it. */
  async function answerConfirmation(confirmed: boolean) {
    const { parts, send } = await runAgent('delete_file', { path: '/tmp/x' });
    const asked = bed.tracing.span('execute_tool delete_file');
    const request = parts.find(
      (part) => part.functionCall?.name === 'adk_request_confirmation',
    )!.functionCall!;
    bed.tracing.reset();
    const answer = await send([
      { functionResponse: { id: request.id, name: 'adk_request_confirmation', response: { confirmed } } },
    ]);
    return {
      asked,
      answered: bed.tracing.span('execute_tool delete_file'),
      response: answer.find((part) => part.functionResponse)?.functionResponse?.response,
    };
  }

  it('a call waiting for confirmation is paused, a declined one denied: neither is a failure', async () => {
    const { asked, answered, response } = await answerConfirmation(false);
    expect(response).to.deep.equal({ error: 'This tool call is rejected.' });
    for (const [span, outcome] of [
      [asked, 'paused'],
      [answered, 'denied'],
    ] as const) {
      expect(span.attributes['tool.call.outcome']).to.equal(outcome);
      expect(span.status.code).to.equal(SpanStatusCode.UNSET);
      // ADK's own span, enriched: no second span for the call.
      expect(span.instrumentationScope.name).to.equal('gcp.vertex.agent');
      expect(span.attributes).to.not.have.property('error.type');
      expect(span.attributes).to.not.have.property('tool.error_kind');
    }
  });

  it('a confirmed call runs: its span is an ordinary call', async () => {
    const { answered, response } = await answerConfirmation(true);
    expect(response).to.deep.equal({ deleted: true });
    expect(answered.attributes).to.not.have.property('tool.call.outcome');
    expect(answered.status.code).to.equal(SpanStatusCode.UNSET);
    expect(answered.attributes).to.not.have.property('error.type');
  });

  it('an unknown tool ends the step with an error event before any tool runs: no tool span (known limit)', async () => {
    const { errors } = await runAgent('no_such_tool', {});
    expect(errors).to.deep.equal(['Function no_such_tool is not found in the toolsDict.']);
    expect(bed.tracing.spans().filter((s) => s.name.startsWith('execute_tool'))).to.have.length(0);
  });

  it("starts its own span when runAsync is called outside ADK's", async () => {
    const [fetchPath] = tools;
    const error = await fetchPath!.runAsync({ args: { path: '/503' }, toolContext: undefined as never }).then(
      () => undefined,
      (err: unknown) => err,
    );
    expect((error as Error).message).to.equal("Error in tool 'fetch_path': GET /503 failed");
    const span = bed.tracing.span('execute_tool fetch_path');
    expect(span.instrumentationScope.name).to.equal('otel-tool-errors');
    expect(errorOf(span)).to.include({ type: '503', kind: 'transient' });
  });

  it('keeps the tool: its own execute property, arity and name', () => {
    const [fetchPath] = tools as unknown as Array<{ execute: (...args: unknown[]) => unknown }>;
    expect(Object.prototype.hasOwnProperty.call(fetchPath, 'execute')).to.equal(true);
    expect(fetchPath!.execute.length).to.equal(1);
  });
});
