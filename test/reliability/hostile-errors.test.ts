import { diag, DiagLogLevel, SpanStatusCode, type Span, type Tracer } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { TOOL_ERROR_KINDS } from '../../src';
import { instrumentTool } from '../../src/instrumentation/instrument-tool';
import { recordToolError, traceToolCall } from '../../src/instrumentation/tool-call/trace-tool-call';
import { ToolMetricsSpanProcessor, ToolCallSummary } from '../../src';
import { ToolErrorSpanProcessor } from '../../src';
import { createTestTracing, type TestTracing } from '../helpers/tracing';
import { errorWithThrowingGetters, throwingProxy } from './tool-behaviours';

/**
 * Errors built to break whoever inspects them, thrown by tools through the wrapper, and recorded
 * on framework spans that only the processor sees. Nothing may throw into the app, hang, or take
 * long; every failed call still ends as one classified span with a bounded status description.
 * (The classifier alone is covered by test/classify/hostile-input.test.ts.)
 */

const TEN_MB = 10 * 1024 * 1024;
/**
 * Per call, generous: linear work on 10 MB takes tens of ms (a 100,000-deep cause chain, made and
 * read, up to 3 s on a loaded 2-core machine); a catastrophic backtrack takes minutes.
 */
const MAX_MS = 10_000;

/** Every read returns a new Proxy like itself: an endless chain of distinct `cause`s. */
function bottomlessProxy(): object {
  const handler: ProxyHandler<object> = { get: () => new Proxy(function () {}, handler) };
  return new Proxy(function () {}, handler);
}

function cyclicCauses(): Error {
  const a = new Error('a');
  const b = new Error('b', { cause: a });
  Object.defineProperty(a, 'cause', { value: b });
  const agg = new AggregateError([a, b], 'both');
  (agg.errors as unknown[]).push(agg);
  return agg;
}

function deepCauses(depth: number): Error {
  let err: Error = Object.assign(new Error('bottom'), { status: 503 });
  for (let i = 0; i < depth; i++) err = new Error(`level ${i}`, { cause: err });
  return err;
}

/** A class whose name is a megabyte long, made at run time. */
function hugeClassInstance(): Error {
  const name = `E${'x'.repeat(1024 * 1024)}`;
  const Named = { [name]: class extends Error {} }[name];
  return new Named('huge class name');
}

/** Getters that answer differently on every read: a status, then an object, then a throw. */
function shapeShifter(): Error {
  let reads = 0;
  const err = new Error('shifty');
  for (const key of ['status', 'code', 'name', 'message']) {
    Object.defineProperty(err, key, {
      get() {
        reads++;
        if (reads % 3 === 0) throw new Error('third read');
        return reads % 3 === 1 ? '500' : { toString: () => 'obj' };
      },
    });
  }
  return err;
}

/** Messages crafted against the classifier's and the redaction's patterns. */
const CRAFTED_MESSAGES: Record<string, () => string> = {
  '10 MB of one letter': () => 'a'.repeat(TEN_MB),
  '10 MB of newlines': () => '\n'.repeat(TEN_MB),
  'repeated "status "': () => `${'status '.repeat(1_000_000)}x`,
  'repeated "https://"': () => 'https://'.repeat(1_000_000),
  'userinfo without end': () => `https://${'a:'.repeat(1_000_000)}`,
  'query without end': () => `https://h/?${'a=b&'.repeat(1_000_000)}`,
  'repeated "Authorization: "': () => 'Authorization: '.repeat(500_000),
  'repeated "Bearer "': () => 'Bearer '.repeat(1_000_000),
  'repeated "password="': () => 'password='.repeat(1_000_000),
  'escaped quotes after a key': () => `password${'\\'.repeat(1_000_000)}"`,
  'almost a JWT': () => `eyJ${'a.'.repeat(1_000_000)}`,
  'almost an sk- key': () => 'sk-'.repeat(1_000_000),
  'MCP error with endless code': () => `MCP error -3${'2'.repeat(1_000_000)}`,
  'lone surrogates': () => '\ud800'.repeat(1_000_000),
};

/** Everything a tool might throw that could break an inspector. */
const HOSTILE: Record<string, () => unknown> = {
  'a Proxy whose every trap throws': () => throwingProxy(),
  'a Proxy over an Error whose every trap throws': () => throwingProxy(new Error('proxied')),
  'a Proxy that returns a new Proxy on every read': () => bottomlessProxy(),
  'cyclic causes and a self-containing AggregateError': () => cyclicCauses(),
  'a 100,000-deep cause chain': () => deepCauses(100_000),
  'throwing getters on status, code, message, name, constructor, cause, stack': () =>
    errorWithThrowingGetters(),
  'getters that change type on every read': () => shapeShifter(),
  'a Symbol': () => Symbol('boom'),
  'a Symbol with a 10 MB description': () => Symbol('d'.repeat(TEN_MB)),
  'a frozen Error with a status': () => Object.freeze(Object.assign(new Error('frozen'), { status: 502 })),
  'a null-prototype object': () => Object.assign(Object.create(null), { message: 'np', code: 'ECONNRESET' }),
  'an object whose toString and toPrimitive throw': () => ({
    toString() {
      throw new Error('toString');
    },
    [Symbol.toPrimitive]() {
      throw new Error('toPrimitive');
    },
  }),
  'a 10 MB name and code': () =>
    Object.assign(new Error('big'), { name: 'N'.repeat(TEN_MB), code: 'C'.repeat(TEN_MB) }),
  'a class with a 1 MB name': () => hugeClassInstance(),
  'a 10 MB thrown string': () => 's'.repeat(TEN_MB),
  ...Object.fromEntries(
    Object.entries(CRAFTED_MESSAGES).map(([label, make]) => [
      `an Error with ${label}`,
      () => new Error(make()),
    ]),
  ),
};

function expectClassifiedFailure(span: ReadableSpan): void {
  expect(span.status.code).to.equal(SpanStatusCode.ERROR);
  expect(span.status.message ?? '').to.have.length.at.most(256);
  expect(span.attributes['error.type']).to.be.a('string').with.length.within(1, 64);
  expect(TOOL_ERROR_KINDS).to.include(span.attributes['tool.error_kind']);
  expect(span.attributes['tool.error_retryable']).to.be.a('boolean');
  expect(span.attributes['tool.error_executed']).to.be.a('boolean');
}

/** Runs `fn` against a deadline: a hang fails the test instead of stalling the suite. */
async function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label}: still running after ${MAX_MS * 3} ms`)), MAX_MS * 3);
  });
  try {
    return await Promise.race([fn(), deadline]);
  } finally {
    clearTimeout(timer);
    const ms = performance.now() - started;
    expect(ms, `${label} took ${ms.toFixed(0)} ms`).to.be.below(MAX_MS);
  }
}

interface DiagCounts {
  errors: number;
  warnings: number;
}

describe('hostile errors through the wrapper and the processor', function () {
  this.timeout(60_000);
  let tracing: TestTracing;
  let tracer: Tracer;
  let meterProvider: MeterProvider;
  const diagCounts: DiagCounts = { errors: 0, warnings: 0 };
  const tally = { values: 0, calls: 0, spans: 0 };

  before(() => {
    // Report our own failures through diag, and count them: they are allowed, throws are not.
    diag.setLogger(
      {
        error: () => void diagCounts.errors++,
        warn: () => void diagCounts.warnings++,
        info: () => undefined,
        debug: () => undefined,
        verbose: () => undefined,
      },
      { logLevel: DiagLogLevel.WARN, suppressOverrideMessage: true },
    );
    meterProvider = new MeterProvider();
    tracing = createTestTracing({
      spanProcessors: [
        new ToolErrorSpanProcessor(),
        new ToolMetricsSpanProcessor({ meterProvider, summary: new ToolCallSummary() }),
      ],
    });
    tracer = tracing.tracer;
  });
  afterEach(() => tracing.reset());
  after(async () => {
    diag.disable();
    console.log(
      `      hostile errors: ${tally.values} values, ${tally.calls} calls, ${tally.spans} spans checked; ` +
        `reported through diag: ${diagCounts.errors} errors, ${diagCounts.warnings} warnings`,
    );
    await tracing.shutdown();
    await meterProvider.shutdown();
  });

  /** The one tool span of the last call. */
  function toolSpan(name: string): ReadableSpan {
    tally.spans++;
    return tracing.span(`execute_tool ${name}`);
  }

  for (const [label, make] of Object.entries(HOSTILE)) {
    it(`${label}: thrown, rejected, failed mid-stream, noted and captured, through the wrapper`, async () => {
      tally.values++;
      const hostile = make();

      // Thrown synchronously by traceToolCall: the same value reaches the caller.
      await timed(`${label} (sync)`, async () => {
        tally.calls++;
        let caught: unknown = 'nothing';
        try {
          traceToolCall(tracer, {}, { name: 'sync' }, () => {
            throw hostile;
          });
        } catch (err) {
          caught = err;
        }
        expect(caught === hostile, 'the same thrown value').to.equal(true);
        expectClassifiedFailure(toolSpan('sync'));
      });

      // Rejected late by an instrumentTool-wrapped async tool, with hostile arguments captured.
      await timed(`${label} (async, capture on)`, async () => {
        tally.calls++;
        const tool = instrumentTool(
          async (_args: unknown) => {
            await new Promise((resolve) => setImmediate(resolve));
            throw hostile;
          },
          'async',
          { tracerProvider: tracing.provider, captureArguments: true, captureResults: true },
        );
        let caught: unknown = 'nothing';
        // A block body: resolving with a hostile value would read its `then`.
        await tool(hostile).catch((err: unknown) => {
          caught = err;
        });
        await new Promise((resolve) => setImmediate(resolve));
        expect(caught === hostile, 'the same rejection').to.equal(true);
        const span = toolSpan('async');
        expectClassifiedFailure(span);
        const captured = span.attributes['gen_ai.tool.call.arguments'];
        if (captured !== undefined) expect(captured).to.be.a('string').with.length.at.most(1024);
      });

      // Failed in the middle of an async iteration.
      await timed(`${label} (stream)`, async () => {
        tally.calls++;
        const stream = traceToolCall(tracer, {}, { name: 'stream' }, async function* () {
          yield 1;
          throw hostile;
        });
        let caught: unknown = 'nothing';
        try {
          for await (const _ of stream);
        } catch (err) {
          caught = err;
        }
        await new Promise((resolve) => setImmediate(resolve));
        expect(caught === hostile, 'the same error mid-stream').to.equal(true);
        expectClassifiedFailure(toolSpan('stream'));
      });

      // Noted by a framework adapter that swallows it (recordToolError), the tool then returns.
      await timed(`${label} (noted)`, async () => {
        tally.calls++;
        const value = traceToolCall(tracer, {}, { name: 'noted' }, () => {
          recordToolError(hostile);
          return 'recovered';
        });
        expect(value).to.equal('recovered');
        expectClassifiedFailure(toolSpan('noted'));
      });
    });
  }

  describe('framework spans the processor alone sees', () => {
    /** A tool span as a framework would make it, spoiled by `spoil`; it must end fast, marked. */
    async function endSpoiledSpan(
      label: string,
      name: string,
      spoil: (span: Span) => void,
    ): Promise<ReadableSpan> {
      return timed(label, async () => {
        tally.calls++;
        const span = tracer.startSpan(name, {
          attributes: name.startsWith('execute_tool')
            ? { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'fw' }
            : { 'ai.toolCall.name': 'fw' },
        });
        try {
          spoil(span);
        } catch {
          // The SDK itself may refuse a hostile value (recordException reads its fields); that is
          // the framework's call, not ours. What follows must still work.
        }
        span.end();
        tally.spans++;
        const ended = tracing.spans().find((s) => s.spanContext().spanId === span.spanContext().spanId);
        expect(ended, 'the span was exported').to.not.equal(undefined);
        return ended!;
      });
    }

    for (const [label, make] of Object.entries(HOSTILE)) {
      it(`recordException(${label}) on an execute_tool span`, async () => {
        const ended = await endSpoiledSpan(label, 'execute_tool fw', (span) => {
          span.setStatus({ code: SpanStatusCode.ERROR });
          span.recordException(make() as Error);
        });
        expectClassifiedFailure(ended);
      });
    }

    for (const [label, make] of Object.entries(CRAFTED_MESSAGES)) {
      it(`${label} as the status, the exception event and the error result of ai.toolCall`, async () => {
        const text = make();
        const viaStatus = await endSpoiledSpan(label, 'execute_tool fw', (span) =>
          span.setStatus({ code: SpanStatusCode.ERROR, message: text }),
        );
        expectClassifiedFailure(viaStatus);
        const viaEvent = await endSpoiledSpan(label, 'execute_tool fw', (span) =>
          span.addEvent('exception', {
            'exception.type': text,
            'exception.message': text,
            'exception.stacktrace': text,
          }),
        );
        expectClassifiedFailure(viaEvent);
        // A returned error result recorded by the framework. The processor parses results up to
        // 64 KB only; 10,000 characters stay under that even when JSON escapes each one as \uXXXX.
        const result = JSON.stringify({
          isError: true,
          content: [{ type: 'text', text: text.slice(0, 10_000) }],
        });
        const viaResult = await endSpoiledSpan(label, 'ai.toolCall', (span) =>
          span.setAttribute('ai.toolCall.result', result),
        );
        expectClassifiedFailure(viaResult);
      });
    }

    it('odd attribute types where the processor reads strings and numbers', async () => {
      const spoilers: Record<string, (span: Span) => void> = {
        'error.type as an array': (s) => s.setAttribute('error.type', ['a', 'b']),
        'error.type as a number': (s) => s.setAttribute('error.type', 500),
        'error.type of 10 MB': (s) => s.setAttribute('error.type', 'T'.repeat(TEN_MB)),
        'tool.error_kind not in the taxonomy': (s) =>
          s.setAttributes({ 'error.type': 'x', 'tool.error_kind': 'nope' }),
        'http.response.status_code NaN': (s) => s.setAttribute('http.response.status_code', NaN),
        'http.response.status_code 1e300': (s) => s.setAttribute('http.response.status_code', 1e300),
        'http.response.status_code as a string': (s) => s.setAttribute('http.response.status_code', '503'),
        'exception event with no attributes': (s) => s.addEvent('exception'),
        '10,000 exception events': (s) => {
          for (let i = 0; i < 10_000; i++) s.addEvent('exception', { 'exception.type': `E${i}` });
        },
      };
      for (const [label, spoil] of Object.entries(spoilers)) {
        const ended = await endSpoiledSpan(label, 'execute_tool fw', (span) => {
          span.setStatus({ code: SpanStatusCode.ERROR });
          spoil(span);
        });
        if (label === 'error.type of 10 MB') {
          // The processor keeps an error.type another instrumentation wrote (the metrics bound it).
          expect(ended.status.code).to.equal(SpanStatusCode.ERROR);
          expect(TOOL_ERROR_KINDS).to.include(ended.attributes['tool.error_kind']);
          continue;
        }
        expectClassifiedFailure(ended);
      }
    });

    it('an error result nested 30,000 levels deep', async () => {
      const deep = `${'['.repeat(30_000)}${']'.repeat(30_000)}`;
      const result = `{"isError":true,"content":${deep}}`;
      const ended = await endSpoiledSpan('deep result', 'ai.toolCall', (span) =>
        span.setAttribute('ai.toolCall.result', result),
      );
      expectClassifiedFailure(ended);
    });

    it('a 10 MB tool name (a model can invent any name): the call, its span and its metrics complete', async () => {
      const summary = new ToolCallSummary();
      const local = createTestTracing({
        spanProcessors: [
          new ToolErrorSpanProcessor(),
          new ToolMetricsSpanProcessor({ meterProvider, summary }),
        ],
      });
      try {
        const name = 'n'.repeat(TEN_MB);
        await timed('10 MB tool name', async () => {
          expect(() =>
            traceToolCall(local.tracer, {}, { name }, () => {
              throw new Error('x');
            }),
          ).to.throw('x');
        });
        const [row] = summary.rows();
        expect(row.calls).to.equal(1);
      } finally {
        await local.shutdown();
      }
    });
  });
});
