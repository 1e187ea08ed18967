import { diag, SpanStatusCode, type Context } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { ToolErrorSpanProcessor } from '../../src';
import { captureDiagnostics } from './child-process-spans';
import { noInputTool, throwingTool, runToolsWithAiSdk } from './scripted-agent';

/** A processor that wraps another and forwards only the classic hooks, as some frameworks' wrappers do. */
class ForwardingProcessor implements SpanProcessor {
  constructor(private readonly inner: SpanProcessor) {}
  onStart(span: Span, parentContext: Context): void {
    this.inner.onStart(span, parentContext);
  }
  onEnd(span: ReadableSpan): void {
    this.inner.onEnd(span);
  }
  forceFlush(): Promise<void> {
    return this.inner.forceFlush();
  }
  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }
}

describe('ToolErrorSpanProcessor diagnostics', () => {
  afterEach(() => diag.disable());

  it('logs nothing while marking failed and successful tool spans (never writes to an ended span)', async () => {
    const diagnostics = captureDiagnostics();
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter), new ToolErrorSpanProcessor()],
    });
    await runToolsWithAiSdk(provider.getTracer('test'), {
      thrown: throwingTool(new Error('Request failed with status code 500')),
      returned: noInputTool(async () => ({ isError: true, content: [] })),
      fine: noInputTool(async () => 'ok'),
    });
    const ok = provider.getTracer('test').startSpan('execute_tool ok-then-error', {
      attributes: { 'gen_ai.tool.call.result': JSON.stringify({ success: false, error: 'timed out' }) },
    });
    ok.setStatus({ code: SpanStatusCode.OK });
    ok.end();
    await provider.forceFlush();
    const marked = exporter.getFinishedSpans().filter((span) => span.attributes['error.type'] !== undefined);
    await provider.shutdown();

    expect(marked.map((span) => span.attributes['error.type']).sort()).to.deep.equal([
      '500',
      'timeout',
      'tool_error',
    ]);
    expect(diagnostics).to.deep.equal([]);
  });

  it('marks in onEnd, without a warning, when onEnding never reaches it', async () => {
    const diagnostics = captureDiagnostics();
    const exporter = new InMemorySpanExporter();
    const processor = new ToolErrorSpanProcessor();
    const provider = new BasicTracerProvider({
      spanProcessors: [new ForwardingProcessor(processor), new SimpleSpanProcessor(exporter)],
    });
    const tracer = provider.getTracer('test');
    for (let i = 0; i < 5; i++) {
      const span = tracer.startSpan(`execute_tool t${i}`, {
        attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': `t${i}` },
      });
      span.recordException(
        Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
      );
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'connect ECONNREFUSED 127.0.0.1:9' });
      span.end();
    }
    const exported = exporter.getFinishedSpans();
    await provider.shutdown();

    expect(diagnostics).to.deep.equal([]);
    expect(exported).to.have.length(5);
    for (const span of exported) {
      expect(span.attributes['error.type']).to.equal('ECONNREFUSED');
      expect(span.attributes['tool.error_kind']).to.equal('network');
      expect(span.status.code).to.equal(SpanStatusCode.ERROR);
    }
    expect(processor._openToolSpanCount).to.equal(0);
  });
});
