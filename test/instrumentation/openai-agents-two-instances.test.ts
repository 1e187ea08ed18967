import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { SpanStatusCode } from '@opentelemetry/api';
import type * as AgentsCore from '@openai/agents-core';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { z } from 'zod';
import { startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import { callApi, errorOf, executedFailure, unexecutedFailure } from '../helpers/tool-failures';
import type { TestTracing } from '../helpers/tracing';
import { useTwoInstances } from '../helpers/two-instances';

const load = createRequire(__filename);

/**
 * Each ToolInstrumentation keeps its own OpenAI Agents state: two instances, each with its own
 * tracer provider, patch the real `@openai/agents-core` its Runner drives with a scripted model.
 * As with LangChain, a call gets one span: both enabled, the instance whose wrapper the runner
 * calls first makes it and the other adds none; with one disabled, the other makes it, classified
 * the same way.
 */

type FunctionTool = Extract<AgentsCore.Tool, { type: 'function' }>;
interface Testing {
  ScriptedModel: new (turns: unknown[][]) => AgentsCore.Model;
  functionCall(name: string, args: unknown, options: { callId: string }): unknown;
  assistantMessage(text: string): unknown;
}

/** A fresh copy of the package, loaded after both instances are enabled (see openai-agents.test.ts). */
function loadFresh<T>(id: string): T {
  const dist = dirname(load.resolve('@openai/agents-core'));
  for (const key of Object.keys(load.cache)) if (key.startsWith(dist)) delete load.cache[key];
  return load(id) as T;
}

describe('OpenAI Agents adapter: two ToolInstrumentation instances with their own providers', function () {
  this.timeout(180_000);
  const two = useTwoInstances();
  let server: FlakyServer;
  let agents: typeof AgentsCore;
  let testing: Testing;
  let fetchPath: FunctionTool;

  before(async () => {
    server = await startFlakyServer();
    agents = loadFresh('@openai/agents-core');
    testing = load('@openai/agents-core/testing') as Testing;
    agents.setTracingDisabled(true);
    fetchPath = makeFetchPath();
  });
  after(async () => {
    await server.close();
  });

  /** A tool made by `tool()` as it is patched when called: by both instances, one, or none. */
  function makeFetchPath(): FunctionTool {
    return agents.tool({
      name: 'fetch_path',
      description: 'GETs a path on the test API',
      parameters: z.object({ path: z.string() }),
      execute: ({ path }) => callApi(server.url + path),
    });
  }

  /** The tool spans one call of `tool` with `args` made, per provider. */
  async function call(tool: FunctionTool, args: unknown): Promise<[ReadableSpan[], ReadableSpan[]]> {
    two.first.reset();
    two.second.reset();
    const model = new testing.ScriptedModel([
      [testing.functionCall(tool.name, args, { callId: 'call_1' })],
      [testing.assistantMessage('done')],
    ]);
    const agent = new agents.Agent({ name: 'tester', instructions: 'test', model, tools: [tool] });
    await new agents.Runner({ tracingDisabled: true }).run(agent, 'go');
    const toolSpans = (tracing: TestTracing) =>
      tracing.spans().filter((span) => span.name === `execute_tool ${tool.name}`);
    return [toolSpans(two.first), toolSpans(two.second)];
  }

  const SUCCEEDED = { type: undefined, kind: undefined, executed: undefined, status: SpanStatusCode.UNSET };
  const FAILED_503 = executedFailure('503', 'transient');
  const BAD_INPUT = unexecutedFailure('InvalidToolInputError', 'invalid_input');

  /** Each call's one span, by the provider that got it, classified as `expected` says. */
  async function expectCalls(tool: FunctionTool, owner: 'first' | 'second' | 'either') {
    const cases: Array<[unknown, ReturnType<typeof errorOf>]> = [
      [{ path: '/ok' }, SUCCEEDED],
      [{ path: '/503' }, FAILED_503],
      [{ path: 42 }, BAD_INPUT],
    ];
    for (const [args, expected] of cases) {
      const [inFirst, inSecond] = await call(tool, args);
      const label = `${JSON.stringify(args)}: spans in [first, second] = [${inFirst.length}, ${inSecond.length}]`;
      expect(inFirst.length + inSecond.length, label).to.equal(1);
      if (owner !== 'either') expect((owner === 'first' ? inFirst : inSecond).length, label).to.equal(1);
      expect(errorOf([...inFirst, ...inSecond][0]!), label).to.deep.equal(expected);
    }
  }

  /** A refund needing approval, asked then refused: the outcomes of its spans, per provider. */
  async function approvalOutcomes(): Promise<[unknown[], unknown[]]> {
    two.first.reset();
    two.second.reset();
    const refund = agents.tool({
      name: 'refund',
      description: 'Refunds an order',
      parameters: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: async ({ amount }) => `refunded ${amount} EUR`,
    });
    const model = new testing.ScriptedModel([
      [testing.functionCall('refund', { amount: 42 }, { callId: 'refund_1' })],
      [testing.assistantMessage('done')],
    ]);
    const agent = new agents.Agent({ name: 'refunds', instructions: 'refund', model, tools: [refund] });
    const runner = new agents.Runner({ tracingDisabled: true });
    const asked = await runner.run(agent, 'refund my order');
    for (const interruption of asked.interruptions) asked.state.reject(interruption);
    await runner.run(agent, asked.state);
    const outcomes = (tracing: TestTracing) =>
      tracing
        .spans()
        .filter((span) => span.name === 'execute_tool refund')
        .map((span) => span.attributes['tool.call.outcome']);
    return [outcomes(two.first), outcomes(two.second)];
  }

  it('both enabled: one span per call, classified as with one instance', async () => {
    await expectCalls(fetchPath, 'either');
  });

  it('both enabled: an approval asked then refused gets one paused and one denied span', async () => {
    const [inFirst, inSecond] = await approvalOutcomes();
    expect([...inFirst, ...inSecond], 'one paused and one denied span in all').to.have.members([
      'paused',
      'denied',
    ]);
  });

  it('the first disabled: the second makes each span, for tools made before and after', async () => {
    await two.whileDisabled(two.a, async () => {
      await expectCalls(fetchPath, 'second');
      await expectCalls(makeFetchPath(), 'second');
      expect(await approvalOutcomes()).to.deep.equal([[], ['paused', 'denied']]);
    });
  });

  it('the second disabled: the first makes each span, for tools made before and after', async () => {
    await two.whileDisabled(two.b, async () => {
      await expectCalls(fetchPath, 'first');
      await expectCalls(makeFetchPath(), 'first');
      expect(await approvalOutcomes()).to.deep.equal([['paused', 'denied'], []]);
    });
  });

  it('both enabled again: one span per call, for a tool made while one was disabled too', async () => {
    two.a.disable();
    const madeWhileFirstDisabled = makeFetchPath();
    two.a.enable();
    await expectCalls(fetchPath, 'either');
    await expectCalls(madeWhileFirstDisabled, 'either');
    await expectCalls(makeFetchPath(), 'either');
  });
});
