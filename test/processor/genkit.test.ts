import { SpanStatusCode, trace } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { genkit, GenkitError, z } from 'genkit';
import { ToolErrorSpanProcessor } from '../../src';

// Genkit would otherwise start its own OpenTelemetry SDK on first use.
const DISABLE_GENKIT_OTEL = '__GENKIT_DISABLE_GENKIT_OTEL_INITIALIZATION';

/**
 * Genkit's own tool-action spans (`genkit:type=action`, `genkit:metadata:subtype=tool`), made by
 * running real `defineTool` actions. Genkit traces through the global tracer provider only.
 */
describe('ToolErrorSpanProcessor on Genkit tool actions', () => {
  const globals = globalThis as Record<string, unknown>;
  let previousFlag: unknown;
  let exporter: InMemorySpanExporter;
  let provider: BasicTracerProvider;

  before(async () => {
    previousFlag = globals[DISABLE_GENKIT_OTEL];
    globals[DISABLE_GENKIT_OTEL] = true;
    exporter = new InMemorySpanExporter();
    provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(exporter), new ToolErrorSpanProcessor()],
    });
    trace.disable();
    trace.setGlobalTracerProvider(provider);

    const ai = genkit({});
    const input = z.object({ city: z.string() });
    const unavailable = ai.defineTool(
      { name: 'forecast', description: 'Weather forecast.', inputSchema: input, outputSchema: z.any() },
      async () => {
        throw new GenkitError({ status: 'UNAVAILABLE', message: 'forecast backend is down' });
      },
    );
    const returnsError = ai.defineTool(
      { name: 'geocode', description: 'Geocoding.', inputSchema: input, outputSchema: z.any() },
      async () => ({ status: 'error', error_message: 'Invalid API key provided' }),
    );
    const works = ai.defineTool(
      { name: 'clock', description: 'Time.', inputSchema: input, outputSchema: z.any() },
      async () => ({ now: '12:00' }),
    );
    await unavailable({ city: 'Oslo' }).catch(() => undefined);
    await returnsError({ city: 'Oslo' });
    await works({ city: 'Oslo' });
  });

  after(async () => {
    trace.disable();
    await provider.shutdown();
    globals[DISABLE_GENKIT_OTEL] = previousFlag;
  });

  const span = (name: string) =>
    exporter.getFinishedSpans().find((s) => s.attributes['genkit:name'] === name)!;

  it('reads the status Genkit keeps in GenkitError.code from the exception event', () => {
    expect(span('forecast').attributes).to.include({
      'error.type': '503',
      'tool.error_kind': 'transient',
      'tool.error_retryable': true,
      'gen_ai.tool.name': 'forecast',
    });
    expect(span('forecast').status.code).to.equal(SpanStatusCode.ERROR);
  });

  it('turns a returned { status: "error" } result into status ERROR with the kind its text says', () => {
    expect(span('geocode').attributes['genkit:state']).to.equal('success');
    expect(span('geocode').status.code).to.equal(SpanStatusCode.ERROR);
    expect(span('geocode').attributes).to.include({ 'error.type': 'tool_error', 'tool.error_kind': 'auth' });
  });

  it('only names a successful tool span', () => {
    expect(span('clock').status.code).to.equal(SpanStatusCode.UNSET);
    expect(span('clock').attributes).to.not.have.property('error.type');
    expect(span('clock').attributes['gen_ai.tool.name']).to.equal('clock');
  });
});
