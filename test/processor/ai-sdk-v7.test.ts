import { SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { ToolErrorSpanProcessor } from '../../src';
import { noInputTool, throwingTool } from './scripted-agent';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/**
 * AI SDK v7 with its OpenTelemetry integration (@ai-sdk/otel): `execute_tool {name}` spans with
 * `gen_ai.operation.name=execute_tool`, made by the real `generateText` and a mock model.
 */
describe('ToolErrorSpanProcessor on AI SDK v7 (@ai-sdk/otel) execute_tool spans', () => {
  let exporter: InMemorySpanExporter;
  let provider: BasicTracerProvider;
  let spans: Record<string, ReadableSpan>;

  before(async () => {
    // Both packages are ESM-only.
    const { generateText, stepCountIs, tool } = await import('ai-v7');
    const { MockLanguageModelV4 } = await import('ai-v7/test');
    const { OpenTelemetry } = await import('@ai-sdk/otel');
    exporter = new InMemorySpanExporter();
    provider = new BasicTracerProvider({
      spanProcessors: [new ToolErrorSpanProcessor(), new SimpleSpanProcessor(exporter)],
    });
    let step = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () => {
        step++;
        const content =
          step === 1
            ? ['thrown', 'returned', 'fine'].map((toolName, i) => ({
                type: 'tool-call' as const,
                toolCallId: `call-${i}`,
                toolName,
                input: '{}',
              }))
            : [{ type: 'text' as const, text: 'done' }];
        const finishReason = step === 1 ? ('tool-calls' as const) : ('stop' as const);
        return { content, finishReason: { unified: finishReason, raw: undefined }, usage, warnings: [] };
      },
    });
    await generateText({
      model,
      prompt: 'use the tools',
      stopWhen: stepCountIs(3),
      tools: {
        thrown: throwingTool(new Error('Request failed with status code 500'), tool),
        returned: noInputTool(
          async () => ({
            isError: true,
            content: [{ type: 'text', text: 'MCP error -32001: Request timed out' }],
          }),
          tool,
        ),
        fine: noInputTool(async () => ({ ok: true }), tool),
      },
      telemetry: {
        isEnabled: true,
        integrations: [new OpenTelemetry({ tracer: provider.getTracer('test') })],
      },
    });
    spans = Object.fromEntries(
      exporter
        .getFinishedSpans()
        .filter((span) => span.attributes['gen_ai.operation.name'] === 'execute_tool')
        .map((span) => [String(span.attributes['gen_ai.tool.name']), span]),
    );
  });

  after(() => provider.shutdown());

  it('adds the error.type and kind the integration leaves out of a thrown error', () => {
    expect(spans.thrown.name).to.equal('execute_tool thrown');
    expect(spans.thrown.attributes).to.include({ 'error.type': '500', 'tool.error_kind': 'transient' });
    expect(spans.thrown.status.code).to.equal(SpanStatusCode.ERROR);
  });

  it('reads gen_ai.tool.call.result for a returned MCP error', () => {
    expect(spans.returned.status.code).to.equal(SpanStatusCode.ERROR);
    expect(spans.returned.attributes).to.include({ 'error.type': 'timeout', 'tool.error_kind': 'timeout' });
  });

  it('leaves the successful tool span alone', () => {
    expect(spans.fine.status.code).to.equal(SpanStatusCode.UNSET);
    expect(spans.fine.attributes).to.not.have.property('error.type');
  });
});
