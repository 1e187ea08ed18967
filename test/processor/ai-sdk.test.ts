import { SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { tool } from 'ai';
import { expect } from 'chai';
import { z } from 'zod';
import { ToolErrorSpanProcessor } from '../../src';
import { noInputTool, throwingTool, runToolsWithAiSdk } from './scripted-agent';

/** The AI SDK v6 `ai.toolCall` spans, made by the real `generateText`, enriched by the processor alone. */
describe('ToolErrorSpanProcessor on AI SDK v6 ai.toolCall spans', () => {
  let exporter: InMemorySpanExporter;
  let provider: BasicTracerProvider;
  let spans: Map<string, ReadableSpan>;

  before(async () => {
    exporter = new InMemorySpanExporter();
    provider = new BasicTracerProvider({
      spanProcessors: [new ToolErrorSpanProcessor(), new SimpleSpanProcessor(exporter)],
    });
    const empty = z.object({});
    await runToolsWithAiSdk(provider.getTracer('test'), {
      refused: tool({
        inputSchema: empty,
        execute: async (): Promise<unknown> => {
          throw Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
        },
      }),
      typeError: throwingTool(new TypeError("Cannot read properties of undefined (reading 'id')")),
      leaky: throwingTool(
        new Error(
          'GET https://user:hunter2@api.example.com/v1/items?api_key=sk-live-abcdefghijklmnop failed',
        ),
      ),
      mcpIsError: noInputTool(async () => ({
        isError: true,
        content: [{ type: 'text', text: 'Too many requests, slow down' }],
      })),
      adkContract: noInputTool(async () => ({
        success: false,
        error: { status: 503, message: 'upstream unavailable' },
      })),
      fine: noInputTool(async () => ({ temperature: 21, error: null })),
    });
    spans = new Map(
      exporter
        .getFinishedSpans()
        .filter((span) => span.name === 'ai.toolCall')
        .map((span) => [String(span.attributes['ai.toolCall.name']), span]),
    );
  });

  after(() => provider.shutdown());

  it('made one ai.toolCall span a tool', () => {
    expect([...spans.keys()].sort()).to.deep.equal([
      'adkContract',
      'fine',
      'leaky',
      'mcpIsError',
      'refused',
      'typeError',
    ]);
  });

  it('classifies a thrown network error by the code in its message (the SDK records only name and message)', () => {
    const span = spans.get('refused')!;
    expect(span.attributes).to.include({
      'error.type': 'ECONNREFUSED',
      'tool.error_kind': 'network',
      'tool.error_retryable': true,
      'tool.error_executed': true,
      'gen_ai.tool.name': 'refused',
    });
    expect(span.status).to.deep.equal({
      code: SpanStatusCode.ERROR,
      message: 'connect ECONNREFUSED 127.0.0.1:9',
    });
  });

  it('falls back to the exception name for an unclassified throw', () => {
    expect(spans.get('typeError')!.attributes).to.include({
      'error.type': 'TypeError',
      'tool.error_kind': 'internal',
      'tool.error_retryable': false,
    });
  });

  it('scrubs credentials and query strings from the status description', () => {
    const message = spans.get('leaky')!.status.message!;
    expect(message).to.contain('api.example.com/v1/items');
    expect(message).not.to.contain('hunter2');
    expect(message).not.to.contain('sk-live');
    expect(message).not.to.contain('api_key');
  });

  it('turns a returned MCP isError result, left UNSET by the SDK, into status ERROR', () => {
    const span = spans.get('mcpIsError')!;
    expect(span.status.code).to.equal(SpanStatusCode.ERROR);
    expect(span.attributes).to.include({ 'error.type': 'tool_error', 'tool.error_kind': 'rate_limit' });
    // The returned text is tool output: it is not copied into the status.
    expect(span.status.message).not.to.contain('slow down');
  });

  it('reads a status inside a returned { success: false } result', () => {
    expect(spans.get('adkContract')!.attributes).to.include({
      'error.type': '503',
      'tool.error_kind': 'transient',
    });
  });

  it('leaves a successful tool span without error attributes, but names it', () => {
    const span = spans.get('fine')!;
    expect(span.status.code).to.equal(SpanStatusCode.UNSET);
    expect(span.attributes).to.not.have.property('error.type');
    expect(span.attributes).to.not.have.property('tool.error_kind');
    expect(span.attributes['gen_ai.tool.name']).to.equal('fine');
  });

  it('does not touch the SDK spans that are not tool calls', () => {
    for (const span of exporter.getFinishedSpans().filter((s) => s.name !== 'ai.toolCall')) {
      expect(span.attributes, span.name).to.not.have.property('error.type');
      expect(span.attributes, span.name).to.not.have.property('gen_ai.tool.name');
    }
  });
});
