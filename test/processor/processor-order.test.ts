import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { ToolErrorSpanProcessor } from '../../src';
import { noInputTool, throwingTool, runToolsWithAiSdk } from './scripted-agent';

type Placement = 'first' | 'last';

/** Runs the same agent with the processor first or last, and returns what the exporter got for each tool. */
async function exportedToolSpans(placement: Placement) {
  const exporter = new InMemorySpanExporter();
  const exporting = new SimpleSpanProcessor(exporter);
  const processor = new ToolErrorSpanProcessor();
  const provider = new BasicTracerProvider({
    spanProcessors: placement === 'first' ? [processor, exporting] : [exporting, processor],
  });
  await runToolsWithAiSdk(provider.getTracer('test'), {
    thrown: throwingTool(new Error('Request failed with status code 502')),
    returned: noInputTool(async () => ({ success: false, error: 'rate limited' })),
    fine: noInputTool(async () => 'ok'),
  });
  const toolSpans = Object.fromEntries(
    exporter
      .getFinishedSpans()
      .filter((span) => span.name === 'ai.toolCall')
      .map((span) => [
        span.attributes['ai.toolCall.name'],
        { attributes: span.attributes, status: span.status },
      ]),
  );
  // Shutting down empties the in-memory exporter, so it comes after the read.
  await provider.shutdown();
  return toolSpans;
}

describe('ToolErrorSpanProcessor position among the span processors', () => {
  it('exports identical tool spans whether it is first or last', async () => {
    const first = await exportedToolSpans('first');
    const last = await exportedToolSpans('last');
    expect(Object.keys(first).sort()).to.deep.equal(['fine', 'returned', 'thrown']);
    expect(first.thrown.attributes['error.type']).to.equal('502');
    expect(first.returned.attributes['tool.error_kind']).to.equal('rate_limit');
    expect(last).to.deep.equal(first);
  });
});
