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

  it('warns once, clearly, when onEnding never reaches it', async () => {
    const diagnostics = captureDiagnostics();
    const exporter = new InMemorySpanExporter();
    const processor = new ToolErrorSpanProcessor();
    const provider = new BasicTracerProvider({
      spanProcessors: [new ForwardingProcessor(processor), new SimpleSpanProcessor(exporter)],
    });
    const tracer = provider.getTracer('test');
    for (let i = 0; i < 5; i++) {
      const span = tracer.startSpan(`execute_tool t${i}`);
      span.setStatus({ code: SpanStatusCode.ERROR, message: 'boom' });
      span.end();
    }
    const exported = exporter.getFinishedSpans();
    await provider.shutdown();

    expect(diagnostics).to.have.length(1);
    expect(diagnostics[0]).to.contain('onEnding is never called').and.contain('sdk-trace-base >= 2.3.0');
    // Nothing could be marked, and nothing is followed any more.
    expect(exported).to.have.length(5);
    expect(exported.every((span) => span.attributes['error.type'] === undefined)).to.equal(true);
    expect(processor._openToolSpanCount).to.equal(0);
  });
});
