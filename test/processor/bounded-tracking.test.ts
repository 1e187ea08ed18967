import { context, SpanKind, trace, type Span } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { ToolErrorSpanProcessor } from '../../src';

const CAP = 10_000;

describe('ToolErrorSpanProcessor tracking of open tool spans', () => {
  it('never follows more than 10,000 open tool spans, and nothing once they end', async function () {
    this.timeout(60_000);
    const exporter = new InMemorySpanExporter();
    const processor = new ToolErrorSpanProcessor();
    const provider = new BasicTracerProvider({
      spanProcessors: [processor, new SimpleSpanProcessor(exporter)],
    });
    const tracer = provider.getTracer('test');
    const open: Span[] = [];
    let largest = 0;
    for (let i = 0; i < 50_000; i++) {
      open.push(tracer.startSpan(`execute_tool leak-${i}`));
      largest = Math.max(largest, processor._openToolSpanCount);
    }
    expect(largest).to.equal(CAP);

    // Non-tool spans are never followed.
    tracer.startSpan('GET /users', { kind: SpanKind.CLIENT }).end();
    expect(processor._openToolSpanCount).to.equal(CAP);

    // The newest 10,000 are the ones followed; ending them empties the structure.
    for (const span of open) span.end();
    expect(processor._openToolSpanCount).to.equal(0);
    await provider.shutdown();
  });

  it('follows at most 10,000 spans under open tool spans, and none once the tool spans end', async function () {
    this.timeout(60_000);
    const processor = new ToolErrorSpanProcessor();
    const provider = new BasicTracerProvider({ spanProcessors: [processor] });
    const tracer = provider.getTracer('test');
    const tool = tracer.startSpan('execute_tool crawl');
    const toolContext = trace.setSpan(context.active(), tool);
    let largest = 0;
    for (let i = 0; i < 50_000; i++) {
      // A helper span that never ends, with a grandchild that does.
      const helper = tracer.startSpan(`helper-${i}`, {}, toolContext);
      tracer.startSpan('GET', { kind: SpanKind.CLIENT }, trace.setSpan(toolContext, helper)).end();
      largest = Math.max(largest, processor._openDescendantCount);
    }
    // Full: the newest helpers are followed (the GET that just ended is not).
    expect(largest).to.equal(CAP - 1);
    tool.end();
    expect(processor._openToolSpanCount).to.equal(0);
    expect(processor._openDescendantCount).to.equal(0);
    await provider.shutdown();
  });

  it('forgets a tool span on end even when it is recognised only at start', async () => {
    const processor = new ToolErrorSpanProcessor({
      isToolSpan: (span) => span.attributes['phase'] === 'start',
    });
    const provider = new BasicTracerProvider({ spanProcessors: [processor] });
    const span = provider.getTracer('test').startSpan('custom', { attributes: { phase: 'start' } });
    expect(processor._openToolSpanCount).to.equal(1);
    span.setAttribute('phase', 'running');
    span.end();
    expect(processor._openToolSpanCount).to.equal(0);
    await provider.shutdown();
  });
});
