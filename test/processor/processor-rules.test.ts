import {
  context,
  diag,
  DiagLogLevel,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { ToolErrorSpanProcessor, type ToolErrorSpanProcessorOptions } from '../../src';

/**
 * The processor's rules on spans of the shapes frameworks make, built with a real tracer provider:
 * what it keeps, what it fills, what it leaves alone. The framework tests show the same on the
 * frameworks' own spans.
 */
describe('ToolErrorSpanProcessor rules', () => {
  let exporter: InMemorySpanExporter;
  let provider: BasicTracerProvider;

  function setUp(options?: ToolErrorSpanProcessorOptions): void {
    exporter = new InMemorySpanExporter();
    provider = new BasicTracerProvider({
      spanProcessors: [new ToolErrorSpanProcessor(options), new SimpleSpanProcessor(exporter)],
    });
  }

  /** Starts a span, lets `body` act on it, ends it, and returns what was exported. */
  function endSpan(
    name: string,
    attributes: Attributes,
    body: (span: Span) => void = () => {},
  ): ReadableSpan {
    const span = provider.getTracer('test').startSpan(name, { attributes });
    body(span);
    span.end();
    return exporter.getFinishedSpans().at(-1)!;
  }

  beforeEach(() => setUp());
  afterEach(() => provider.shutdown());

  it('a stopped call (tool.call.outcome) is never marked: the ERROR, exception and error.type a framework left are cleared', () => {
    const span = endSpan(
      'execute_tool refund',
      {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'refund',
        'tool.call.outcome': 'paused',
        // What a framework that matches interrupts by their name alone writes.
        'error.type': 'GraphInterrupt',
      },
      (s) => {
        // What a framework records for the interrupt it throws: the question in its text.
        s.recordException({ name: 'GraphInterrupt', message: '[{"value":"Refund 42 EUR?"}]' });
        s.setStatus({ code: SpanStatusCode.ERROR, message: '[{"value":"Refund 42 EUR?"}]' });
        s.addEvent('checkpoint');
      },
    );
    expect(span.status).to.deep.equal({ code: SpanStatusCode.UNSET });
    expect(span.events.map((event) => event.name)).to.deep.equal(['checkpoint']);
    expect(span.attributes).to.not.have.property('error.type');
    expect(span.attributes).to.not.have.property('tool.error_kind');
    expect(span.attributes['tool.call.outcome']).to.equal('paused');
  });

  it('an unknown tool.call.outcome value is no outcome: the failure is marked', () => {
    const span = endSpan(
      'execute_tool refund',
      { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'refund', 'tool.call.outcome': 'later' },
      (s) => s.recordException({ name: 'TypeError', message: 'x is undefined' }),
    );
    expect(span.status.code).to.equal(SpanStatusCode.ERROR);
    expect(span.attributes).to.include({ 'error.type': 'TypeError', 'tool.error_kind': 'internal' });
  });

  it('keeps every value an instrumentation already wrote', () => {
    const span = endSpan(
      'execute_tool search',
      {
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'search',
        'error.type': 'ECONNRESET',
        'tool.error_kind': 'network',
        'tool.error_retryable': false,
        'tool.error_executed': true,
      },
      (s) => {
        s.recordException(Object.assign(new Error('503 from upstream'), { status: 503 }));
        s.setStatus({ code: SpanStatusCode.ERROR, message: 'socket hang up' });
      },
    );
    expect(span.attributes).to.include({
      'gen_ai.tool.name': 'search',
      'error.type': 'ECONNRESET',
      'tool.error_kind': 'network',
      'tool.error_retryable': false,
      'tool.error_executed': true,
    });
    expect(span.status).to.deep.equal({ code: SpanStatusCode.ERROR, message: 'socket hang up' });
  });

  it('fills the kind and flags that an existing error.type implies', () => {
    const span = endSpan('execute_tool fetch', { 'error.type': '429' }, (s) =>
      s.setStatus({ code: SpanStatusCode.ERROR }),
    );
    expect(span.attributes).to.include({
      'error.type': '429',
      'tool.error_kind': 'rate_limit',
      'tool.error_retryable': true,
    });
  });

  it('classifies the exception event: exception.type is err.code when there is one', () => {
    const span = endSpan('execute_tool fetch', {}, (s) => {
      s.recordException(Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' }));
      s.setStatus({ code: SpanStatusCode.ERROR, message: 'read ECONNRESET' });
    });
    expect(span.attributes).to.include({
      'error.type': 'ECONNRESET',
      'tool.error_kind': 'network',
      'gen_ai.tool.name': 'fetch',
    });
  });

  it('uses http.response.status_code on the tool span itself (AI SDK v7 sets it for API errors)', () => {
    const span = endSpan(
      'execute_tool call_api',
      { 'gen_ai.operation.name': 'execute_tool', 'http.response.status_code': 401 },
      (s) => {
        s.recordException({ name: 'AI_APICallError', message: 'Unauthorized' });
        s.setStatus({ code: SpanStatusCode.ERROR, message: 'Unauthorized' });
      },
    );
    expect(span.attributes).to.include({ 'error.type': '401', 'tool.error_kind': 'auth' });
  });

  it('gives a status ERROR with nothing else the `_OTHER` type', () => {
    const span = endSpan('execute_tool bare', {}, (s) => s.setStatus({ code: SpanStatusCode.ERROR }));
    expect(span.attributes).to.include({ 'error.type': '_OTHER', 'tool.error_kind': 'internal' });
    expect(span.status.code).to.equal(SpanStatusCode.ERROR);
  });

  it('keeps only the first line of a status description, scrubbed', () => {
    const span = endSpan('execute_tool t', {}, (s) =>
      s.setStatus({
        code: SpanStatusCode.ERROR,
        message:
          'GET https://api.example.com/x?token=abc123 failed\n\nError: GET ... failed\n    at handler (/app/tool.js:1:1)',
      }),
    );
    expect(span.status.message).to.equal('GET https://api.example.com/x failed');
  });

  it('does not parse an oversized result', () => {
    const huge = JSON.stringify({ isError: true, content: [{ type: 'text', text: 'x'.repeat(70_000) }] });
    const span = endSpan('execute_tool big', { 'gen_ai.tool.call.result': huge });
    expect(span.status.code).to.equal(SpanStatusCode.UNSET);
    expect(span.attributes).to.not.have.property('error.type');
  });

  it('leaves spans that are not tool spans alone, failed or not', () => {
    const failedHttp = endSpan(
      'GET',
      { 'http.request.method': 'GET', 'http.response.status_code': 500 },
      (s) => s.setStatus({ code: SpanStatusCode.ERROR }),
    );
    const chat = endSpan('chat gpt-4o', { 'gen_ai.operation.name': 'chat' }, (s) =>
      s.setStatus({ code: SpanStatusCode.ERROR }),
    );
    for (const span of [failedHttp, chat]) {
      expect(span.attributes).to.not.have.property('tool.error_kind');
      expect(span.attributes).to.not.have.property('gen_ai.tool.name');
    }
  });

  it('recognises the application’s own tool spans through isToolSpan', async () => {
    await provider.shutdown();
    setUp({ isToolSpan: (span) => span.attributes['app.kind'] === 'tool' });
    const span = endSpan('weather lookup', { 'app.kind': 'tool', 'tool.name': 'weather' }, (s) =>
      s.setStatus({ code: SpanStatusCode.ERROR, message: 'Request timed out' }),
    );
    expect(span.attributes).to.include({
      'error.type': 'timeout',
      'tool.error_kind': 'timeout',
      'gen_ai.tool.name': 'weather',
    });
  });

  it('treats a throwing isToolSpan as "no" and says so once', async () => {
    const logged: string[] = [];
    diag.setLogger(
      {
        error: () => {},
        warn: (...args) => logged.push(args.map(String).join(' ')),
        info: () => {},
        debug: () => {},
        verbose: () => {},
      },
      DiagLogLevel.WARN,
    );
    try {
      await provider.shutdown();
      setUp({
        isToolSpan: () => {
          throw new Error('matcher bug');
        },
      });
      const a = endSpan('custom a', {}, (s) => s.setStatus({ code: SpanStatusCode.ERROR }));
      endSpan('custom b', {});
      expect(a.attributes).to.not.have.property('error.type');
      expect(logged.filter((m) => m.includes('isToolSpan'))).to.have.length(1);
    } finally {
      diag.disable();
    }
  });

  it('explains bad options', () => {
    expect(() => new ToolErrorSpanProcessor({ isToolSpan: 'yes' } as never)).to.throw(
      TypeError,
      /isToolSpan must be a function/,
    );
    expect(() => new ToolErrorSpanProcessor(null as never)).to.throw(TypeError, /options must be an object/);
  });

  it('never throws from its hooks, even on something that is not a span', () => {
    const errors: unknown[] = [];
    diag.setLogger(
      {
        error: (...args) => errors.push(args),
        warn: () => {},
        info: () => {},
        debug: () => {},
        verbose: () => {},
      },
      DiagLogLevel.ERROR,
    );
    try {
      const processor = new ToolErrorSpanProcessor();
      const notASpan = {} as never;
      expect(() => processor.onStart(notASpan, {} as never)).not.to.throw();
      expect(() => processor.onEnding(notASpan)).not.to.throw();
      expect(() => processor.onEnd(notASpan)).not.to.throw();
      expect(errors).to.have.length.greaterThan(0);
    } finally {
      diag.disable();
    }
  });

  it('records the last HTTP call under a tool span only when it is an HTTP client span', () => {
    const tracer = provider.getTracer('test');
    const parent = tracer.startSpan('execute_tool db');
    const parentContext = trace.setSpan(context.active(), parent);
    // A failed non-HTTP child (a database call) is not HTTP evidence.
    const query = tracer.startSpan(
      'SELECT',
      { kind: SpanKind.CLIENT, attributes: { 'db.system': 'postgresql', 'error.type': 'ECONNREFUSED' } },
      parentContext,
    );
    query.setStatus({ code: SpanStatusCode.ERROR });
    query.end();
    parent.setStatus({ code: SpanStatusCode.ERROR, message: 'query failed' });
    parent.end();
    const span = exporter.getFinishedSpans().find((s) => s.name === 'execute_tool db')!;
    expect(span.attributes).to.include({ 'error.type': '_OTHER', 'tool.error_kind': 'internal' });
  });
});
