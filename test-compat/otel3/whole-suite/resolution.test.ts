import { TracerProvider } from '@opentelemetry/sdk-trace';
import { expect } from 'chai';
import { createTestTracing } from '../../../test/helpers/tracing';
import { ToolErrorSpanProcessor } from '../../../src';

/**
 * The whole-suite run (.mocharc.whole-suite.json) is only a 3.x run if the repository's tests
 * really get the 3.x packages: the shared test helper's provider is a 3.x TracerProvider, and its
 * spans carry the processor's attributes through the 3.x onEnding.
 */
describe('the whole-suite run resolves the 3.x line', () => {
  it("the shared test helper's provider is @opentelemetry/sdk-trace 3's TracerProvider", async () => {
    const tracing = createTestTracing({ spanProcessors: [new ToolErrorSpanProcessor()] });
    expect(tracing.provider).to.be.instanceOf(TracerProvider);
    const span = tracing.tracer.startSpan('execute_tool lookup', {
      attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup' },
    });
    span.recordException(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
    span.end();
    expect(tracing.span('execute_tool lookup').attributes).to.include({ 'error.type': 'ECONNREFUSED' });
    await tracing.shutdown();
  });
});
