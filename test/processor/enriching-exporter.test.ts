import { SpanStatusCode } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { tool } from 'ai';
import { expect } from 'chai';
import { z } from 'zod';
import { ToolErrorEnrichingExporter } from '../../src';
import { startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import { startOtlpJsonReceiver } from '../helpers/otlp-json-receiver';
import { ensureContextManager } from '../helpers/tracing';
import { noInputTool, runToolsWithAiSdk } from './scripted-agent';

const empty = z.object({});

/** Real AI SDK tools: one fails on a 503 from a real fetch, one returns an error, one works. */
function tools(server: FlakyServer) {
  return {
    unavailable: tool({
      inputSchema: empty,
      execute: async () => {
        const response = await fetch(`${server.url}/503`);
        if (!response.ok) throw new Error('request failed');
      },
    }),
    returned: noInputTool(async () => ({ isError: true, content: [{ type: 'text', text: 'forbidden' }] })),
    fine: noInputTool(async () => 'ok'),
  };
}

const calls = { unavailable: {}, returned: {}, fine: {} };

/**
 * For SDKs that never call onEnding: the exporter wrapper marks copies of the spans at export.
 * No ToolErrorSpanProcessor is registered here.
 */
describe('ToolErrorEnrichingExporter', () => {
  let server: FlakyServer;
  let undici: UndiciInstrumentation;

  before(async () => {
    ensureContextManager();
    server = await startFlakyServer();
    undici = new UndiciInstrumentation();
  });

  after(async () => {
    undici.disable();
    await server.close();
  });

  it('a stopped call (tool.call.outcome): the copy has no ERROR, no exception and no error attributes', () => {
    const marked = new InMemorySpanExporter();
    const plain = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [
        new SimpleSpanProcessor(new ToolErrorEnrichingExporter(marked)),
        new SimpleSpanProcessor(plain),
      ],
    });
    const span = provider.getTracer('test').startSpan('execute_tool refund', {
      attributes: {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'refund',
        'tool.call.outcome': 'denied',
        'error.type': 'ApprovalRejected',
        'tool.error_kind': 'not_permitted',
      },
    });
    span.recordException({ name: 'ApprovalRejected', message: 'Tool execution was not approved.' });
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'Tool execution was not approved.' });
    span.end();
    const [copy] = marked.getFinishedSpans();
    expect(copy!.status).to.deep.equal({ code: SpanStatusCode.UNSET });
    expect(copy!.events).to.deep.equal([]);
    expect(copy!.attributes).to.not.have.property('error.type');
    expect(copy!.attributes).to.not.have.property('tool.error_kind');
    expect(copy!.attributes['tool.call.outcome']).to.equal('denied');
    // The SDK's own span is left as the framework made it.
    expect(plain.getFinishedSpans()[0]!.status.code).to.equal(SpanStatusCode.ERROR);
  });

  it('marks the copies a SimpleSpanProcessor exports, and leaves the SDK spans untouched', async () => {
    const marked = new InMemorySpanExporter();
    const plain = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [
        new SimpleSpanProcessor(new ToolErrorEnrichingExporter(marked)),
        new SimpleSpanProcessor(plain),
      ],
    });
    undici.setTracerProvider(provider);
    undici.enable();
    await runToolsWithAiSdk(provider.getTracer('test'), tools(server), calls);
    undici.disable();
    const markedSpans = marked.getFinishedSpans();
    const plainSpans = plain.getFinishedSpans();
    // Shutting down empties the in-memory exporters, so it comes after the reads.
    await provider.shutdown();

    const byTool = (spans: ReadableSpan[], name: string) =>
      spans.find((s) => s.name === 'ai.toolCall' && s.attributes['ai.toolCall.name'] === name)!;
    const unavailable = byTool(markedSpans, 'unavailable');
    expect(unavailable.attributes).to.include({
      'error.type': '503',
      'tool.error_kind': 'transient',
      'tool.error_retryable': true,
      'gen_ai.tool.name': 'unavailable',
    });
    const returned = byTool(markedSpans, 'returned');
    expect(returned.status.code).to.equal(SpanStatusCode.ERROR);
    // The returned text is a reason phrase and nothing more: the status it names.
    expect(returned.attributes).to.include({ 'error.type': '403', 'tool.error_kind': 'auth' });
    expect(byTool(markedSpans, 'fine').attributes).to.not.have.property('error.type');

    // The copy is still the same span to an exporter: same context, times and methods.
    const original = byTool(plainSpans, 'unavailable');
    expect(unavailable.spanContext()).to.deep.equal(original.spanContext());
    expect(unavailable.duration).to.deep.equal(original.duration);
    expect(unavailable.instrumentationScope).to.deep.equal(original.instrumentationScope);
    // The SDK's own span, which other processors see, is not marked.
    expect(original.attributes).to.not.have.property('error.type');
    expect(byTool(plainSpans, 'returned').status.code).to.equal(SpanStatusCode.UNSET);
  });

  it('marks what a BatchSpanProcessor sends through the real OTLP/HTTP exporter', async () => {
    const receiver = await startOtlpJsonReceiver();
    const provider = new BasicTracerProvider({
      spanProcessors: [
        new BatchSpanProcessor(
          new ToolErrorEnrichingExporter(new OTLPTraceExporter({ url: receiver.tracesUrl })),
        ),
      ],
    });
    undici.setTracerProvider(provider);
    undici.enable();
    await runToolsWithAiSdk(provider.getTracer('test'), tools(server), calls);
    await provider.forceFlush();
    await provider.shutdown();
    undici.disable();
    await receiver.close();

    const toolSpans = receiver.spans().filter((span) => span.name === 'ai.toolCall');
    const unavailable = toolSpans.find((span) => span.attributes['ai.toolCall.name'] === 'unavailable')!;
    expect(unavailable.attributes).to.include({ 'error.type': '503', 'tool.error_kind': 'transient' });
    expect(unavailable.statusCode).to.equal(SpanStatusCode.ERROR);
    expect(unavailable.spanId).to.match(/^[0-9a-f]{16}$/);
    const returned = toolSpans.find((span) => span.attributes['ai.toolCall.name'] === 'returned')!;
    expect(returned.attributes).to.include({ 'error.type': '403' });
    expect(returned.statusCode).to.equal(SpanStatusCode.ERROR);
  });

  it('rejects what is not an exporter with a clear message', () => {
    expect(() => new ToolErrorEnrichingExporter({} as never)).to.throw(TypeError, /expected a SpanExporter/);
  });
});
