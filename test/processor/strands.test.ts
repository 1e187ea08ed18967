import { createRequire } from 'node:module';
import { SpanStatusCode } from '@opentelemetry/api';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { MockLanguageModelV3 } from 'ai/test';
import axios from 'axios';
import { expect } from 'chai';
import { z } from 'zod';
import { ToolErrorSpanProcessor } from '../../src';
import { refusedPort, startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import { errorOf, executedFailure, unexecutedFailure } from '../helpers/tool-failures';
import { createTestTracing, type TestTracing } from '../helpers/tracing';

type Any = Record<string, any>;

const { streamingModelCalling } = createRequire(__filename)(
  '../pipeline/apps/mock-language-model.cjs',
) as Any;

/**
 * A language model (the AI SDK's MockLanguageModelV3, through Strands' own VercelModel) that calls
 * `toolName` once and then answers; what the agent handed back is kept in `seen`.
 */
function modelCalling(toolName: string, seen: unknown[]) {
  return streamingModelCalling(MockLanguageModelV3, toolName, 'call-1', (prompt: Any[]) => {
    for (const message of prompt) if (message.role === 'tool') seen.push(...message.content);
  });
}

/**
 * Strands Agents makes its own `execute_tool {name}` spans through the global tracer provider:
 * status ERROR and an exception event when the tool threw, no error attributes; nothing but
 * `gen_ai.tool.status=error` when the call was answered with an error result (an unknown tool).
 * The processor enriches them; the agent runs its real loop with a mock model.
 */
describe('ToolErrorSpanProcessor on Strands Agents tool spans (@strands-agents/sdk)', () => {
  let tracing: TestTracing;
  let undici: UndiciInstrumentation;
  let flaky: FlakyServer;
  const answers: Record<string, unknown[]> = {};

  before(async () => {
    tracing = createTestTracing({ spanProcessors: [new ToolErrorSpanProcessor()], global: true });
    undici = new UndiciInstrumentation();
    undici.setTracerProvider(tracing.provider);
    undici.enable();
    flaky = await startFlakyServer();
    const closed = await refusedPort();
    const { Agent, tool } = await import('@strands-agents/sdk');
    const { VercelModel } = await import('@strands-agents/sdk/models/vercel');
    const empty = z.object({});
    const tools = [
      tool({
        name: 'quote',
        description: 'Gets a quote.',
        inputSchema: empty,
        callback: async () => {
          const response = await fetch(`${flaky.url}/503`);
          if (!response.ok) throw new Error('upstream failed');
          return response.json();
        },
      }),
      tool({
        name: 'limits',
        description: 'Reads the limits.',
        inputSchema: empty,
        callback: async () => (await axios.get(`${flaky.url}/429`)).data,
      }),
      tool({
        name: 'refused',
        description: 'Calls a closed port.',
        inputSchema: empty,
        callback: async () => (await fetch(`http://127.0.0.1:${closed}/`)).json(),
      }),
      tool({
        name: 'clock',
        description: 'Tells the time.',
        inputSchema: empty,
        callback: () => ({ now: '12:00' }),
      }),
    ];
    for (const name of ['quote', 'limits', 'refused', 'clock', 'nope']) {
      answers[name] = [];
      const model = new VercelModel({ provider: modelCalling(name, answers[name]) as never });
      const agent = new Agent({ model, tools, printer: false });
      const result = await agent.invoke('go');
      expect(String(result)).to.equal('done');
    }
  });

  after(async () => {
    undici.disable();
    await flaky.close();
    await tracing.shutdown();
  });

  const toolSpan = (name: string): ReadableSpan => tracing.span(`execute_tool ${name}`);

  it("the agent's own answers are unchanged: error results carrying the tool's message", () => {
    expect(answers.quote).to.have.length(1);
    expect(answers.quote![0]).to.deep.include({ type: 'tool-result', toolCallId: 'call-1' });
    expect(JSON.stringify(answers.quote)).to.include('upstream failed');
    expect(JSON.stringify(answers.nope)).to.include("Tool 'nope' not found in registry");
  });

  it('a tool that threw after a 503 gets error.type 503 from its HTTP call', () => {
    expect(errorOf(toolSpan('quote'))).to.deep.equal(executedFailure('503', 'transient'));
    expect(toolSpan('quote').attributes).to.include({ 'gen_ai.tool.call.id': 'call-1' });
  });

  it('an AxiosError for a 429 without Retry-After, whose span keeps no headers, is rate_limit, retryable', () => {
    expect(errorOf(toolSpan('limits'))).to.deep.equal(executedFailure('429', 'rate_limit'));
    expect(toolSpan('limits').attributes['tool.error_retryable']).to.equal(true);
  });

  it('a refused connection is network, ECONNREFUSED from the fetch span', () => {
    expect(errorOf(toolSpan('refused'))).to.deep.equal(executedFailure('ECONNREFUSED', 'network'));
  });

  it('an unknown tool, which Strands answers without an exception, is unknown_tool, not executed', () => {
    const span = toolSpan('nope');
    expect(span.attributes['gen_ai.tool.status']).to.equal('error');
    expect(errorOf(span)).to.deep.equal(unexecutedFailure('tool_error', 'unknown_tool'));
  });

  it('a tool that works keeps its span as Strands ended it: status OK, no error attributes', () => {
    expect(errorOf(toolSpan('clock'))).to.deep.equal({
      type: undefined,
      kind: undefined,
      executed: undefined,
      status: SpanStatusCode.OK,
    });
  });
});
