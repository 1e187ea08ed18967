import { createRequire } from 'node:module';
import { SpanStatusCode } from '@opentelemetry/api';
import type { BaseToolWithCall, ToolCall } from '@llamaindex/core/llms';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import { fetchPathTool, loadLlamaIndex, scriptedLlm, type LlamaIndex } from '../helpers/llamaindex';
import { errorOf, executedFailure, unexecutedFailure } from '../helpers/tool-failures';
import type { TestTracing } from '../helpers/tracing';
import { useTwoInstances } from '../helpers/two-instances';

// Loaded after both instances are enabled, so require-in-the-middle patches it for each.
const load = createRequire(__filename);

/**
 * Two ToolInstrumentation instances, each with its own tracer provider, patch the real
 * `@llamaindex/workflow` (agent() and MockLLM, as llamaindex.test.ts drives them). As with
 * LangChain, a call gets one span: both enabled, the instance whose wrapper the workflow calls
 * first makes it and the other enriches it; with one disabled, the other makes it, with the
 * tool's real error (noted by the `call` that whichever instance came first made noting).
 */
describe('LlamaIndex adapter: two ToolInstrumentation instances with their own providers', function () {
  this.timeout(180_000);
  const two = useTwoInstances();
  let server: FlakyServer;
  let llama: LlamaIndex;
  let fetchPath: BaseToolWithCall;

  before(async () => {
    server = await startFlakyServer();
    llama = loadLlamaIndex(load);
    fetchPath = fetchPathTool(llama, () => server.url);
  });
  after(async () => {
    await server.close();
  });

  /** The tool spans of one agent run calling `tool` with `input`, per provider. */
  async function run(tool: BaseToolWithCall, input: ToolCall['input']) {
    two.first.reset();
    two.second.reset();
    const { llm } = scriptedLlm(llama, [{ id: 'call_1', name: 'fetch_path', input }]);
    await llama.workflow.agent({ llm, tools: [tool] }).run('go');
    const spans = (tracing: TestTracing) =>
      tracing.spans().filter((s) => s.name === 'execute_tool fetch_path');
    return [spans(two.first), spans(two.second)] as const;
  }

  const SUCCEEDED = { type: undefined, kind: undefined, executed: undefined, status: SpanStatusCode.UNSET };

  async function expectCalls(tool: BaseToolWithCall, owner: 'first' | 'second' | 'either') {
    const cases: Array<[ToolCall['input'], ReturnType<typeof errorOf>, number]> = [
      [{ path: '/ok' }, SUCCEEDED, 0],
      [{ path: '/503' }, executedFailure('503', 'transient'), 1],
      [{ path: 42 }, unexecutedFailure('ZodError', 'invalid_input'), 1],
    ];
    for (const [input, expected, exceptions] of cases) {
      const [inFirst, inSecond] = await run(tool, input);
      const label = `${JSON.stringify(input)}: spans in [first, second] = [${inFirst.length}, ${inSecond.length}]`;
      expect(inFirst.length + inSecond.length, label).to.equal(1);
      if (owner !== 'either') expect((owner === 'first' ? inFirst : inSecond).length, label).to.equal(1);
      const [span] = [...inFirst, ...inSecond] as [ReadableSpan];
      expect(errorOf(span), label).to.deep.equal(expected);
      expect(
        span.events.filter((e) => e.name === 'exception'),
        `${label}: exception events`,
      ).to.have.length(exceptions);
    }
  }

  it('both enabled: one span per call, classified as with one instance', async () => {
    await expectCalls(fetchPath, 'either');
  });

  it('the first disabled: the second makes each span, for tools the first made noting', async () => {
    await two.whileDisabled(two.a, async () => {
      await expectCalls(fetchPath, 'second');
      await expectCalls(
        fetchPathTool(llama, () => server.url),
        'second',
      );
    });
  });

  it('the second disabled: the first makes each span', async () => {
    await two.whileDisabled(two.b, async () => {
      await expectCalls(fetchPath, 'first');
      await expectCalls(
        fetchPathTool(llama, () => server.url),
        'first',
      );
    });
  });

  it('both enabled again: one span per call, for a tool first called while one was disabled too', async () => {
    two.a.disable();
    const calledWhileFirstDisabled = fetchPathTool(llama, () => server.url);
    await run(calledWhileFirstDisabled, { path: '/ok' });
    two.a.enable();
    await expectCalls(calledWhileFirstDisabled, 'either');
    await expectCalls(fetchPath, 'either');
  });
});
