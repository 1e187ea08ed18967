import { context, SpanKind, trace, type Tracer } from '@opentelemetry/api';
import { expect } from 'chai';
import { RedactingSpanProcessor, ToolErrorEnrichingExporter, ToolErrorSpanProcessor } from '../../src';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { traceToolCall } from '../../src/instrumentation/tool-call/trace-tool-call';
import { createTestTracing, type TestTracing } from '../helpers/tracing';

/**
 * RedactingSpanProcessor and the exception-event redaction of ToolErrorSpanProcessor, on spans of
 * a real tracer provider. The register runs both against real HTTP instrumentations in
 * test/reliability/attack.test.ts.
 */
describe('RedactingSpanProcessor', () => {
  let tracing: TestTracing;
  let tracer: Tracer;

  function setUp(captureArguments?: boolean): void {
    tracing = createTestTracing({
      spanProcessors: [new RedactingSpanProcessor({ captureArguments }), new ToolErrorSpanProcessor()],
    });
    tracer = tracing.tracer;
  }
  afterEach(() => tracing.shutdown());

  /** An HTTP client span, as instrumentation-http or -undici records it. */
  function httpCall(url: string, parent = context.active()): void {
    const parsed = new URL(url);
    tracer
      .startSpan(
        'GET',
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'url.full': url,
            'url.path': parsed.pathname,
            'url.query': parsed.search.slice(1),
            'http.url': url,
            'http.target': parsed.pathname + parsed.search,
          },
        },
        parent,
      )
      .end();
  }

  /** The span of one HTTP call to `url`, made after a fresh set-up. */
  function httpSpan(url: string) {
    setUp();
    httpCall(url);
    return tracing.span('GET');
  }

  it('redacts credentials and secret-named query values on every span', () => {
    const span = httpSpan('https://bob:hunter2@api.example.com/v1/search?q=weather&api_key=k3y&sig=s1g');
    expect(span.attributes['url.full']).to.equal(
      'https://REDACTED:REDACTED@api.example.com/v1/search?q=weather&api_key=REDACTED&sig=REDACTED',
    );
    expect(span.attributes['http.url']).to.equal(span.attributes['url.full']);
    expect(span.attributes['http.target']).to.equal('/v1/search?q=weather&api_key=REDACTED&sig=REDACTED');
    expect(span.attributes['url.query']).to.equal('q=weather&api_key=REDACTED&sig=REDACTED');
  });

  it("redacts a webhook URL's secret, keeping its ids", () => {
    const span = httpSpan('https://hooks.slack.com/services/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S');
    expect(span.attributes['url.full']).to.equal(
      'https://hooks.slack.com/services/T0ABCD1EF/B0GHIJ2KL/REDACTED',
    );
    expect(span.attributes['url.path']).to.equal('/services/T0ABCD1EF/B0GHIJ2KL/REDACTED');
  });

  it('redacts the secret of a webhook or bot path on any host, however short', () => {
    const span = httpSpan('https://relay.example.org/slack/services/T0ABCD1EF/B0GHIJ2KL/q8Xw4Vb6');
    expect(span.attributes['url.full']).to.equal(
      'https://relay.example.org/slack/services/T0ABCD1EF/B0GHIJ2KL/REDACTED',
    );
    expect(span.attributes['url.path']).to.equal('/slack/services/T0ABCD1EF/B0GHIJ2KL/REDACTED');
    const bot = httpSpan('https://tg-proxy.example.net/bot987654:k2jd9slq/sendMessage?chat_id=42');
    expect(bot.attributes['url.full']).to.equal(
      'https://tg-proxy.example.net/bot987654:REDACTED/sendMessage?chat_id=42',
    );
    expect(bot.attributes['http.target']).to.equal('/bot987654:REDACTED/sendMessage?chat_id=42');
  });

  it('with capture off, every query value of a call made under a framework tool span', () => {
    setUp();
    const tool = tracer.startSpan('execute_tool web_search', {
      attributes: { 'gen_ai.tool.name': 'web_search' },
    });
    const underTool = trace.setSpan(context.active(), tool);
    httpCall('https://search.example.com/api?q=tax%20fraud%20lawyer&lang=en', underTool);
    // A grandchild too.
    const child = tracer.startSpan('retry', {}, underTool);
    httpCall('https://search.example.com/api?q=tax%20fraud%20lawyer', trace.setSpan(underTool, child));
    child.end();
    tool.end();
    httpCall('https://search.example.com/api?q=outside&lang=en');
    const urls = tracing
      .spans()
      .filter((s) => s.name === 'GET')
      .map((s) => s.attributes['url.full']);
    expect(urls).to.deep.equal([
      'https://search.example.com/api?q=REDACTED&lang=REDACTED',
      'https://search.example.com/api?q=REDACTED',
      'https://search.example.com/api?q=outside&lang=en',
    ]);
  });

  it('with capture on, only secret-named values', () => {
    setUp(true);
    const tool = tracer.startSpan('execute_tool web_search');
    httpCall('https://search.example.com/api?q=lawyer&token=t0k', trace.setSpan(context.active(), tool));
    tool.end();
    expect(tracing.span('GET').attributes['url.full']).to.equal(
      'https://search.example.com/api?q=lawyer&token=REDACTED',
    );
  });

  it("hides a wrapped tool's argument values from every attribute, event and status of the spans under it", async () => {
    setUp();
    await traceToolCall(
      tracer,
      {},
      { name: 'find_lawyer', args: { topic: 'tax fraud lawyer', city: 'Lyon' } },
      async () => {
        httpCall('https://api.example.com/people/tax%20fraud%20lawyer/Lyon');
        const inner = tracer.startSpan('db.query', {
          attributes: { 'db.query.text': "SELECT * WHERE topic = 'tax fraud lawyer'" },
        });
        inner.addEvent('note', { detail: 'looked up Lyon' });
        inner.setStatus({ code: 2, message: 'nothing for tax+fraud+lawyer' });
        inner.end();
      },
    );
    const http = tracing.span('GET');
    expect(http.attributes['url.full']).to.equal('https://api.example.com/people/REDACTED/REDACTED');
    const db = tracing.span('db.query');
    expect(db.attributes['db.query.text']).to.equal("SELECT * WHERE topic = '[REDACTED]'");
    expect(db.events[0]!.attributes).to.deep.equal({ detail: 'looked up [REDACTED]' });
    expect(db.status.message).to.equal('nothing for [REDACTED]');
  });

  it('rejects options that are not what they say', () => {
    expect(() => new RedactingSpanProcessor({ captureArguments: 'false' as unknown as boolean })).to.throw(
      TypeError,
      /captureArguments must be true or false/,
    );
  });
});

describe('ToolErrorSpanProcessor: exception events on framework tool spans', () => {
  let tracing: TestTracing;
  afterEach(() => tracing.shutdown());

  it("redacts the framework's exception event, and hides the arguments ToolInstrumentation saw", () => {
    tracing = createTestTracing({ spanProcessors: [new ToolErrorSpanProcessor()] });
    const tracer = tracing.tracer;
    // The AI SDK's own span, with ToolInstrumentation running the tool inside it.
    const span = tracer.startSpan('ai.toolCall', { attributes: { 'ai.toolCall.name': 'lookup' } });
    const error = new Error(
      'lookup of tax fraud lawyer failed: GET https://x.test/?token=abc token=sk-ant-api03-abcdefghijklmnopqrstu',
    );
    try {
      context.with(trace.setSpan(context.active(), span), () =>
        traceToolCall(tracer, {}, { name: 'lookup', args: { q: 'tax fraud lawyer' } }, () => {
          throw error;
        }),
      );
    } catch (thrown) {
      expect(thrown).to.equal(error);
    }
    // The framework records the raw error on its own span, as the AI SDK does.
    span.recordException(error);
    span.setStatus({ code: 2, message: error.message });
    span.end();
    const ended = tracing.span('ai.toolCall');
    const text = JSON.stringify({ events: ended.events, status: ended.status });
    expect(text).not.to.include('tax fraud lawyer');
    expect(text).not.to.include('sk-ant-api03');
    expect(text).not.to.include('token=abc');
    expect(ended.events[0]!.attributes!['exception.message']).to.equal(
      'lookup of [REDACTED] failed: GET https://x.test/ token=[REDACTED]',
    );
    expect(ended.events[0]!.attributes!['exception.stacktrace'])
      .to.be.a('string')
      .and.not.include('tax fraud');
  });
});

describe('ToolErrorEnrichingExporter: exception events on framework tool spans', () => {
  it('exports a redacted copy of the exception event, leaving the span as the SDK made it', async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(new ToolErrorEnrichingExporter(exporter))],
    });
    const span = provider
      .getTracer('test')
      .startSpan('ai.toolCall', { attributes: { 'ai.toolCall.name': 'lookup' } });
    span.recordException(
      new Error('upstream said {"access_token":"at8Hq2kWm5"} for hf_QmZkVbTrWpXyLnHsDfGjKaEcUoIq12345678'),
    );
    span.end();
    const exported = exporter.getFinishedSpans()[0]!;
    expect(exported.events[0]!.attributes!['exception.message']).to.equal(
      'upstream said {"access_token":"[REDACTED]"} for [REDACTED]',
    );
    expect(JSON.stringify(exported.events)).not.to.include('hf_QmZk');
    expect(exported.attributes['tool.error_kind']).to.be.a('string');
    await provider.shutdown();
  });
});
