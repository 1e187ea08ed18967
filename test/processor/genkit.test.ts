import { SpanStatusCode, trace } from '@opentelemetry/api';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { genkit, GenkitError, z } from 'genkit';
import { ToolErrorSpanProcessor } from '../../src';
import { startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import { errorOf, executedFailure } from '../helpers/tool-failures';
import { ensureContextManager } from '../helpers/tracing';

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

/**
 * A Genkit agent loop: `generate()` with a model made by `defineModel` that asks for one tool and
 * then answers. The tool fails for real against a server on 127.0.0.1; its fetch is traced by
 * instrumentation-undici under Genkit's tool span, which the processor reads.
 */
describe('ToolErrorSpanProcessor on Genkit tool spans in generate()', () => {
  const globals = globalThis as Record<string, unknown>;
  let previousFlag: unknown;
  let exporter: InMemorySpanExporter;
  let provider: BasicTracerProvider;
  let undici: UndiciInstrumentation;
  let flaky: FlakyServer;
  const outcomes: Record<string, unknown> = {};

  before(async () => {
    previousFlag = globals[DISABLE_GENKIT_OTEL];
    globals[DISABLE_GENKIT_OTEL] = true;
    // As NodeSDK does: without a context manager the fetch span would not be under the tool span.
    ensureContextManager();
    exporter = new InMemorySpanExporter();
    provider = new BasicTracerProvider({
      spanProcessors: [new ToolErrorSpanProcessor(), new SimpleSpanProcessor(exporter)],
    });
    trace.disable();
    trace.setGlobalTracerProvider(provider);
    undici = new UndiciInstrumentation({ headersToSpanAttributes: { responseHeaders: ['retry-after'] } });
    undici.setTracerProvider(provider);
    undici.enable();
    flaky = await startFlakyServer();

    const ai = genkit({});
    const input = z.object({});
    const getOrThrow = async (path: string) => {
      const response = await fetch(`${flaky.url}${path}`);
      if (!response.ok) throw new Error('upstream failed');
      return response.json();
    };
    const tools = [
      ai.defineTool({ name: 'quote', description: 'Quote.', inputSchema: input, outputSchema: z.any() }, () =>
        getOrThrow('/503'),
      ),
      ai.defineTool(
        { name: 'limits', description: 'Limits.', inputSchema: input, outputSchema: z.any() },
        () => getOrThrow('/429?retryAfter=7'),
      ),
      ai.defineTool({ name: 'ok', description: 'Works.', inputSchema: input, outputSchema: z.any() }, () =>
        getOrThrow('/ok'),
      ),
    ];
    for (const tool of ['quote', 'limits', 'ok']) {
      const model = ai.defineModel({ name: `calls-${tool}`, supports: { tools: true } }, async (request) =>
        request.messages.at(-1)?.role === 'tool'
          ? { message: { role: 'model', content: [{ text: 'done' }] }, finishReason: 'stop' }
          : {
              message: {
                role: 'model',
                content: [{ toolRequest: { name: tool, ref: `call-${tool}`, input: {} } }],
              },
              finishReason: 'stop',
            },
      );
      outcomes[tool] = await ai.generate({ model, prompt: 'go', tools }).then(
        (response) => response.text,
        (err: unknown) => err,
      );
    }
  });

  after(async () => {
    undici.disable();
    trace.disable();
    await flaky.close();
    await provider.shutdown();
    globals[DISABLE_GENKIT_OTEL] = previousFlag;
  });

  const toolSpan = (name: string) =>
    exporter
      .getFinishedSpans()
      .find((s) => s.attributes['genkit:metadata:subtype'] === 'tool' && s.name === name)!;

  it('generate() rejects with the error the tool threw, as Genkit does', () => {
    expect(outcomes.quote).to.be.instanceOf(Error).with.property('message', 'upstream failed');
    expect(outcomes.ok).to.equal('done');
  });

  it("a tool that threw after a 503: error.type 503 from the fetch under Genkit's span", () => {
    expect(errorOf(toolSpan('quote'))).to.deep.equal(executedFailure('503', 'transient'));
    expect(toolSpan('quote').attributes['gen_ai.tool.name']).to.equal('quote');
  });

  it('a 429 with Retry-After is rate_limit', () => {
    expect(errorOf(toolSpan('limits'))).to.deep.equal(executedFailure('429', 'rate_limit'));
  });

  it('a tool that works is not marked', () => {
    expect(toolSpan('ok').status.code).to.not.equal(SpanStatusCode.ERROR);
    expect(toolSpan('ok').attributes).to.not.have.property('error.type');
  });
});
