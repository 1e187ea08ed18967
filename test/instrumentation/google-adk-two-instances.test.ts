import { createRequire } from 'node:module';
import { SpanStatusCode } from '@opentelemetry/api';
import type * as Adk from '@google/adk';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { z } from 'zod';
import { ToolInstrumentation } from '../../src';
import { startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import { errorOf, executedFailure, unexecutedFailure } from '../helpers/tool-failures';
import { createTestTracing, type TestTracing } from '../helpers/tracing';

// Loaded after both instances are enabled, so require-in-the-middle patches it for each.
const load = createRequire(__filename);

/**
 * Two ToolInstrumentation instances, each with its own tracer provider, patch the real
 * `@google/adk` (InMemoryRunner and a scripted BaseLlm, as google-adk.test.ts drives it). ADK makes
 * its tool spans through the global provider; whichever instances are enabled, each call's ADK
 * span is enriched once, with the tool's real error (noted by the `execute` and `validateArgs`
 * that whichever instance came first made noting), and no instance adds a span of its own.
 */
describe('Google ADK adapter: two ToolInstrumentation instances with their own providers', function () {
  this.timeout(180_000);
  let global: TestTracing;
  let first: TestTracing;
  let second: TestTracing;
  let a: ToolInstrumentation;
  let b: ToolInstrumentation;
  let server: FlakyServer;
  let adk: typeof Adk;
  let fetchPath: Adk.FunctionTool;

  before(async () => {
    global = createTestTracing({ global: true });
    first = createTestTracing();
    second = createTestTracing();
    server = await startFlakyServer();
    [a, b] = [first, second].map((tracing) => {
      const instrumentation = new ToolInstrumentation();
      instrumentation.setTracerProvider(tracing.provider);
      return instrumentation;
    }) as [ToolInstrumentation, ToolInstrumentation];
    adk = load('@google/adk');
    fetchPath = makeFetchPath();
  });
  after(async () => {
    a.disable();
    b.disable();
    await server.close();
    await Promise.all([global, first, second].map((tracing) => tracing.shutdown()));
  });

  function makeFetchPath(): Adk.FunctionTool {
    return new adk.FunctionTool({
      name: 'fetch_path',
      description: 'GETs a path on the test API',
      parameters: z.object({ path: z.string() }),
      execute: async ({ path }) => {
        const res = await fetch(server.url + path);
        if (!res.ok) throw new Error(`GET ${path} failed`, { cause: res });
        return { body: await res.text() };
      },
    });
  }

  function scriptedLlm(args: Record<string, unknown>) {
    class ScriptedLlm extends adk.BaseLlm {
      private calls = 0;
      constructor() {
        super({ model: 'scripted' });
      }
      async *generateContentAsync(): AsyncGenerator<Adk.LlmResponse, void> {
        const first = this.calls++ === 0;
        yield {
          content: {
            role: 'model',
            parts: first ? [{ functionCall: { id: 'fc_1', name: 'fetch_path', args } }] : [{ text: 'done' }],
          },
        };
      }
      connect(): Promise<Adk.BaseLlmConnection> {
        return Promise.reject(new Error('live connections are not scripted'));
      }
    }
    return new ScriptedLlm();
  }

  /** The tool spans of one run calling `tool` with `args`: ADK's, and each instance's own. */
  async function run(tool: Adk.FunctionTool, args: Record<string, unknown>) {
    for (const tracing of [global, first, second]) tracing.reset();
    const agent = new adk.LlmAgent({
      name: 'tester',
      model: scriptedLlm(args),
      instruction: 'test',
      tools: [tool],
    });
    const runner = new adk.InMemoryRunner({ agent, appName: 'app' });
    const session = await runner.sessionService.createSession({ appName: 'app', userId: 'user' });
    const newMessage = { role: 'user', parts: [{ text: 'go' }] } as Adk.Event['content'];
    for await (const _ of runner.runAsync({
      userId: 'user',
      sessionId: session.id,
      newMessage: newMessage!,
    }));
    const toolSpans = (tracing: TestTracing) =>
      tracing.spans().filter((s) => s.name === 'execute_tool fetch_path');
    return { adkSpans: toolSpans(global), own: [...toolSpans(first), ...toolSpans(second)] };
  }

  const SUCCEEDED = { type: undefined, kind: undefined, executed: undefined, status: SpanStatusCode.UNSET };

  /** Each call: ADK's one span, enriched once as with one instance, and no span of ours beside it. */
  async function expectCalls(tool: Adk.FunctionTool) {
    const cases: Array<[Record<string, unknown>, ReturnType<typeof errorOf>, number]> = [
      [{ path: '/ok' }, SUCCEEDED, 0],
      [{ path: '/503' }, executedFailure('503', 'transient'), 1],
      [{ path: 42 }, unexecutedFailure('ZodError', 'invalid_input'), 1],
    ];
    for (const [args, expected, exceptions] of cases) {
      const { adkSpans, own } = await run(tool, args);
      const label = JSON.stringify(args);
      expect(
        own.map((s) => s.instrumentationScope.name),
        `${label}: spans of ours`,
      ).to.deep.equal([]);
      expect(adkSpans, `${label}: ADK's spans`).to.have.length(1);
      const [span] = adkSpans as [ReadableSpan];
      expect(errorOf(span), label).to.deep.equal(expected);
      expect(
        span.events.filter((e) => e.name === 'exception'),
        `${label}: exception events`,
      ).to.have.length(exceptions);
    }
  }

  /** runAsync outside ADK's span: one span of ours, from `owner` when only one is enabled. */
  async function expectOwnSpan(owner: 'first' | 'second' | 'either') {
    for (const tracing of [global, first, second]) tracing.reset();
    await fetchPath
      .runAsync({ args: { path: '/503' }, toolContext: undefined as never })
      .catch(() => undefined);
    const spans = (tracing: TestTracing) =>
      tracing.spans().filter((s) => s.name === 'execute_tool fetch_path');
    const [inFirst, inSecond] = [spans(first), spans(second)];
    expect(inFirst.length + inSecond.length, 'spans of ours').to.equal(1);
    if (owner !== 'either') expect((owner === 'first' ? inFirst : inSecond).length).to.equal(1);
    expect(errorOf([...inFirst, ...inSecond][0]!)).to.deep.equal(executedFailure('503', 'transient'));
  }

  it('both enabled: ADK span enriched once per call, no span of ours beside it', async () => {
    await expectCalls(fetchPath);
    await expectOwnSpan('either');
  });

  it('the first disabled: the second enriches each call, for tools the first made noting', async () => {
    a.disable();
    try {
      await expectCalls(fetchPath);
      await expectCalls(makeFetchPath());
      await expectOwnSpan('second');
    } finally {
      a.enable();
    }
  });

  it('the second disabled: the first enriches each call', async () => {
    b.disable();
    try {
      await expectCalls(fetchPath);
      await expectCalls(makeFetchPath());
      await expectOwnSpan('first');
    } finally {
      b.enable();
    }
  });

  it('both enabled again: as before, for a tool first called while one was disabled too', async () => {
    a.disable();
    const calledWhileFirstDisabled = makeFetchPath();
    await run(calledWhileFirstDisabled, { path: '/ok' });
    a.enable();
    await expectCalls(calledWhileFirstDisabled);
    await expectCalls(fetchPath);
    await expectOwnSpan('either');
  });
});
