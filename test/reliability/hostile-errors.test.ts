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
import { CRAFTED_MESSAGES, HOSTILE, TEN_MB } from './hostile-values';

/**
 * Errors built to break whoever inspects them, thrown by tools through the wrapper, and recorded
 * on framework spans that only the processor sees. Nothing may throw into the app or hang; every
 * failed call still ends as one classified span with a bounded status description. (The
 * classifier alone is covered by test/classify/hostile-input.test.ts; the time each value takes,
 * by `npm run bench -- hostile`.)
 */

/** Long enough that only a hang reaches it (a catastrophic backtrack takes minutes); not a time limit. */
const HANG_MS = 30_000;

function expectClassifiedFailure(span: ReadableSpan): void {
  expect(span.status.code).to.equal(SpanStatusCode.ERROR);
  expect(span.status.message ?? '').to.have.length.at.most(256);
  expect(span.attributes['error.type']).to.be.a('string').with.length.within(1, 64);
  expect(TOOL_ERROR_KINDS).to.include(span.attributes['tool.error_kind']);
  expect(span.attributes['tool.error_retryable']).to.be.a('boolean');
  expect(span.attributes['tool.error_executed']).to.be.a('boolean');
}

/**
 * Runs `fn` against a deadline: a hang fails the test instead of stalling the suite. How long each
 * value takes is measured by `npm run bench -- hostile`, not here.
 */
async function underDeadline<T>(label: string, fn: () => Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${label}: still running after ${HANG_MS} ms`)), HANG_MS);
  });
  try {
    return await Promise.race([fn(), deadline]);
  } finally {
    clearTimeout(timer);
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
      await underDeadline(`${label} (sync)`, async () => {
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
      await underDeadline(`${label} (async, capture on)`, async () => {
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
      await underDeadline(`${label} (stream)`, async () => {
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
      await underDeadline(`${label} (noted)`, async () => {
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
    /** A tool span as a framework would make it, spoiled by `spoil`; it must end, marked. */
    async function endSpoiledSpan(
      label: string,
      name: string,
      spoil: (span: Span) => void,
    ): Promise<ReadableSpan> {
      return underDeadline(label, async () => {
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
        await underDeadline('10 MB tool name', async () => {
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
