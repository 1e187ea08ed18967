import { createRequire } from 'node:module';
import type { Span } from '@opentelemetry/api';
import type * as Ai from 'ai';
import type * as AiTest from 'ai/test';
import { expect } from 'chai';
import { z } from 'zod';
import { expectExecuteToolSpan, underAgentSpan } from '../helpers/agent-span';
import { describeAdapterConformance } from '../helpers/adapter-conformance';
import { modelCalling, MOCK_USAGE } from '../helpers/ai-sdk-mock-model';
import { useAdapterTestBed } from '../helpers/test-bed';
import { callApi, errorOf, executedFailure, unexecutedFailure } from '../helpers/tool-failures';

// Loaded after the instrumentation is enabled, so require-in-the-middle hands out the patched exports.
const load = createRequire(__filename);

/** The first part of a step's content of the given type. */
function partOf(content: unknown, type: string) {
  return (content as Array<{ type: string; error?: unknown; output?: unknown }>).find(
    (part) => part.type === type,
  );
}

describe('AI SDK v6 adapter (ai generateText / streamText / ToolLoopAgent with MockLanguageModelV3)', () => {
  const bed = useAdapterTestBed();
  let ai: typeof Ai;
  let MockLanguageModelV3: typeof AiTest.MockLanguageModelV3;
  let tools: Ai.ToolSet;

  before(async () => {
    ai = load('ai');
    ({ MockLanguageModelV3 } = load('ai/test') as typeof AiTest);
    tools = {
      fetch_path: ai.tool({
        description: 'GETs a path on the test API',
        inputSchema: z.object({ path: z.string() }),
        execute: async ({ path }, { abortSignal }) => callApi(bed.server.url + path, abortSignal),
      }),
      adk_contract: ai.tool({
        inputSchema: z.object({}),
        execute: async () => ({ success: false, error: { status: 503, message: 'upstream unavailable' } }),
      }),
    };
  });

  const underAgent = <T>(run: () => Promise<T> | T) => underAgentSpan(bed.tracing.tracer, run);

  const toolSpan = (name: string, agent: Span) =>
    expectExecuteToolSpan(bed.tracing, name, agent, { 'gen_ai.tool.call.id': 'call-1' });

  const generate = (toolName: string, input: unknown, extra: Record<string, unknown> = {}) =>
    ai.generateText({
      model: modelCalling(MockLanguageModelV3, toolName, input),
      prompt: 'go',
      tools,
      stopWhen: ai.stepCountIs(3),
      ...extra,
    });

  describeAdapterConformance({
    describesTool: true,
    async call(tool) {
      const conformanceTools = {
        [tool.name]: ai.tool({
          description: tool.description,
          inputSchema: z.object({ path: z.string() }),
          execute: (input) => tool.execute(input),
        }),
      };
      const { value, agent } = await underAgent(() =>
        generate(tool.name, tool.input, { tools: conformanceTools }),
      );
      return { span: toolSpan(tool.name, agent), answer: value.steps[0]!.content };
    },
    expectFailureAnswer: (content, thrown) => expect(partOf(content, 'tool-error')?.error).to.equal(thrown),
    expectSuccessAnswer: (content, returned) =>
      expect(partOf(content, 'tool-result')?.output).to.equal(returned),
  });

  it('marks a returned { success: false } result from its status', async () => {
    const { agent } = await underAgent(() => generate('adk_contract', {}));
    expect(errorOf(toolSpan('adk_contract', agent))).to.include({ type: '503', kind: 'transient' });
  });

  it('records an unknown tool name as unknown_tool, not executed, and still calls onStepFinish', async () => {
    const steps: unknown[] = [];
    const { agent } = await underAgent(() =>
      generate('nope', {}, { onStepFinish: (s: unknown) => steps.push(s) }),
    );
    expect(steps).to.have.length(2);
    expect(errorOf(toolSpan('nope', agent))).to.deep.equal(
      unexecutedFailure('NoSuchToolError', 'unknown_tool'),
    );
  });

  it('records a Zod input error as invalid_input, not executed', async () => {
    const { agent } = await underAgent(() => generate('fetch_path', { path: 42 }));
    expect(errorOf(toolSpan('fetch_path', agent))).to.deep.equal(
      unexecutedFailure('InvalidToolInputError', 'invalid_input'),
    );
  });

  it('enriches the SDK ai.toolCall span when telemetry is on, instead of adding a second span', async () => {
    await underAgent(() =>
      generate(
        'fetch_path',
        { path: '/500' },
        { experimental_telemetry: { isEnabled: true, tracer: bed.tracing.tracer } },
      ),
    );
    const names = bed.tracing.spans().map((s) => s.name);
    expect(names.filter((n) => n.startsWith('execute_tool'))).to.deep.equal([]);
    const span = bed.tracing.span('ai.toolCall');
    expect(span.attributes).to.include({ 'gen_ai.tool.name': 'fetch_path', 'gen_ai.tool.call.id': 'call-1' });
    // The AI SDK convention keeps its own operation name (see the processor's recognition notes).
    expect(span.attributes['gen_ai.operation.name']).to.equal(undefined);
    expect(errorOf(span)).to.deep.equal(executedFailure('500', 'transient'));
    // The SDK records the exception itself; the wrapper adds none.
    expect(span.events.filter((e) => e.name === 'exception')).to.have.length(1);
  });

  it('streamText: the tool span carries the error once the stream is consumed', async () => {
    const { agent } = await underAgent(async () => {
      const result = ai.streamText({
        model: new MockLanguageModelV3({
          doStream: async () => ({
            stream: (load('ai/test') as typeof AiTest).simulateReadableStream({
              chunks: [
                { type: 'tool-call', toolCallId: 'call-1', toolName: 'fetch_path', input: '{"path":"/401"}' },
                {
                  type: 'finish',
                  finishReason: { unified: 'tool-calls', raw: undefined },
                  usage: MOCK_USAGE,
                },
              ],
            }),
          }),
        }),
        prompt: 'go',
        tools,
      });
      await result.consumeStream();
      return result;
    });
    expect(errorOf(toolSpan('fetch_path', agent))).to.include({ type: '401', kind: 'auth' });
  });

  it('ToolLoopAgent.generate: its tools are traced too', async () => {
    const agentInstance = new ai.ToolLoopAgent({
      model: modelCalling(MockLanguageModelV3, 'fetch_path', { path: '/503' }),
      tools,
    });
    const { agent } = await underAgent(() => agentInstance.generate({ prompt: 'go' }));
    expect(errorOf(toolSpan('fetch_path', agent))).to.include({ type: '503', kind: 'transient' });
  });

  it('unpatches on disable and patches once again on enable', async () => {
    const patched = ai.generateText as unknown as { __wrapped?: boolean; __original?: unknown };
    expect(patched.__wrapped).to.equal(true);
    const original = patched.__original;
    bed.instrumentation.disable();
    expect(ai.generateText).to.equal(original);
    await generate('fetch_path', { path: '/500' });
    expect(bed.tracing.spans()).to.have.length(0);
    bed.instrumentation.enable();
    expect((ai.generateText as unknown as { __original?: unknown }).__original).to.equal(original);
    await generate('fetch_path', { path: '/500' });
    expect(bed.tracing.spans().map((s) => s.name)).to.deep.equal(['execute_tool fetch_path']);
  });
});
