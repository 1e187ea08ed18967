import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
  type SpanStatus,
} from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { ToolErrorEnrichingExporter, ToolErrorSpanProcessor } from '../../../src';
import type { SpanFamily, SpanMatch } from '../../../src/tool-span/families/family';
import { recognizeToolSpan } from '../../../src/tool-span/recognition';
import type { ReadableSpanLike } from '../../../src/tool-span/span-shape';

/** A tool span of one family, for the tool `lookup`, as the framework starts and ends it. */
export interface FamilySample {
  readonly name: string;
  readonly kind?: SpanKind;
  /** Set at start, without `gen_ai.tool.name`: the family says where the name is. */
  readonly attributes: Attributes;
  /** Set only when the call ends (ADK's `gen_ai.*`, Strands' result status). */
  readonly endAttributes?: Attributes;
  /** For a family with `readErrorResult`: records an error result with this text as the framework does. */
  readonly recordErrorResult?: (span: Span, text: string) => void;
}

/** What the enriched span must carry. */
interface Expected {
  readonly errorType: string;
  readonly kind: string;
  readonly detailType?: string;
}

const TOOL = 'lookup';
/** A returned error result that says nothing finer than "it failed". */
const ERROR_RESULT = JSON.stringify({ success: false, error: 'lookup failed' });

/** The processor in `onEnding`, and the exporter wrapper for pipelines without it. */
const PIPELINES = {
  ToolErrorSpanProcessor: (exporter: InMemorySpanExporter) =>
    new BasicTracerProvider({
      spanProcessors: [new ToolErrorSpanProcessor(), new SimpleSpanProcessor(exporter)],
    }),
  ToolErrorEnrichingExporter: (exporter: InMemorySpanExporter) =>
    new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(new ToolErrorEnrichingExporter(exporter))],
    }),
};

/** A span that has exactly what one declared match asks for. */
function spanFor(match: SpanMatch): ReadableSpanLike {
  const attributes: Attributes = { ...match.attributes };
  for (const key of match.present ?? []) attributes[key] = 'present';
  return {
    name: match.nameEquals ?? `${match.namePrefix ?? ''}${TOOL}${match.nameSuffix ?? ''}`,
    kind: SpanKind.INTERNAL,
    attributes,
    status: { code: SpanStatusCode.UNSET },
    events: [],
    spanContext: () => ({ traceId: '1'.repeat(32), spanId: '1'.repeat(16), traceFlags: 1 }),
  };
}

/**
 * The span-family conformance suite: a failing span of `family` in, the enriched span out, for
 * every failure shape the declaration says the family can carry, through the processor and
 * through the enriching exporter.
 */
export function describeSpanFamily(family: SpanFamily, sample: FamilySample): void {
  describe(`span family: ${family.framework}`, () => {
    it('recognises a span of every match it declares as its own', () => {
      for (const match of family.recognise) {
        expect(recognizeToolSpan(spanFor(match), undefined), JSON.stringify(match)).to.equal(family);
      }
    });

    for (const [pipeline, makeProvider] of Object.entries(PIPELINES)) {
      describe(`through ${pipeline}`, () => {
        let exporter: InMemorySpanExporter;
        let provider: BasicTracerProvider;
        beforeEach(() => {
          exporter = new InMemorySpanExporter();
          provider = makeProvider(exporter);
        });
        afterEach(() => provider.shutdown());

        /** Starts the sample span, lets `body` act on it, ends it: the exported tool span. */
        function toolSpan(body: (span: Span) => void): ReadableSpan {
          const span = provider.getTracer('framework').startSpan(sample.name, {
            kind: sample.kind ?? SpanKind.INTERNAL,
            attributes: sample.attributes,
          });
          if (sample.endAttributes) span.setAttributes(sample.endAttributes);
          body(span);
          span.end();
          const exported = exporter.getFinishedSpans().at(-1)!;
          expect(recognizeToolSpan(exported, undefined), 'the sample is recognised as this family').to.equal(
            family,
          );
          return exported;
        }

        function expectFailure(span: ReadableSpan, expected: Expected): void {
          expect(span.attributes).to.include({
            'gen_ai.tool.name': TOOL,
            'error.type': expected.errorType,
            'tool.error_kind': expected.kind,
          });
          expect(span.attributes['tool.error_detail_type']).to.equal(expected.detailType);
          expect(span.attributes['tool.error_retryable']).to.be.a('boolean');
          expect(span.attributes['tool.error_executed']).to.be.a('boolean');
          expect(span.status.code).to.equal(SpanStatusCode.ERROR);
        }

        it('a call that succeeded: gen_ai.tool.name filled from where the family keeps it, nothing marked', () => {
          const span = toolSpan((s) => s.setStatus({ code: SpanStatusCode.OK }));
          expect(span.attributes['gen_ai.tool.name']).to.equal(TOOL);
          expect(span.attributes).to.not.have.any.keys('error.type', 'tool.error_kind');
          expect(span.status.code).to.not.equal(SpanStatusCode.ERROR);
        });

        for (const key of family.callId ?? []) {
          it(`gen_ai.tool.call.id filled from ${key}`, () => {
            const span = toolSpan((s) => s.setAttribute(key, 'call_7'));
            expect(span.attributes['gen_ai.tool.call.id']).to.equal('call_7');
          });
        }

        it('a thrown error: error.type from its exception event', () => {
          const span = toolSpan((s) => {
            s.recordException(
              Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:443'), { code: 'ECONNREFUSED' }),
            );
            s.setStatus({ code: SpanStatusCode.ERROR, message: 'connect ECONNREFUSED 10.0.0.7:443' });
          });
          expectFailure(span, { errorType: 'ECONNREFUSED', kind: 'network' });
        });

        it('a generic error thrown after a failed HTTP call under the span: the HTTP status', () => {
          const tracer = provider.getTracer('framework');
          const span = toolSpan((s) => {
            const http = tracer.startSpan(
              'GET',
              { kind: SpanKind.CLIENT, attributes: { 'http.request.method': 'GET' } },
              trace.setSpan(ROOT_CONTEXT, s),
            );
            http.setAttributes({ 'http.response.status_code': 503, 'error.type': '503' });
            http.setStatus({ code: SpanStatusCode.ERROR });
            http.end();
            s.recordException(new Error('upstream failed'));
            s.setStatus({ code: SpanStatusCode.ERROR, message: 'upstream failed' });
          });
          expectFailure(span, { errorType: '503', kind: 'transient' });
        });

        for (const key of ['gen_ai.tool.call.result', ...(family.result ?? [])]) {
          it(`an error result the tool returned, recorded in ${key}: tool_error, status ERROR over OK`, () => {
            const span = toolSpan((s) => {
              s.setAttribute(key, ERROR_RESULT);
              s.setStatus({ code: SpanStatusCode.OK });
            });
            expectFailure(span, { errorType: 'tool_error', kind: 'tool_error' });
          });
        }

        const statusOnly = (s: Span, status: SpanStatus) => s.setStatus(status);
        if (family.mcpToolCall) {
          it('status ERROR without an exception is an isError result: error.type tool_error, the finer type kept', () => {
            const span = toolSpan((s) =>
              statusOnly(s, { code: SpanStatusCode.ERROR, message: 'upstream answered HTTP 503' }),
            );
            expectFailure(span, { errorType: 'tool_error', kind: 'transient', detailType: '503' });
          });
          const { flag, text } = family.mcpToolCall;
          if (flag !== undefined) {
            it(`an isError result flagged in ${flag}: error.type tool_error, the finer type from its text`, () => {
              const span = toolSpan((s) => {
                s.setAttribute(flag, true);
                if (text !== undefined) s.setAttribute(text, 'upstream answered HTTP 503');
              });
              expectFailure(span, {
                errorType: 'tool_error',
                kind: text === undefined ? 'tool_error' : 'transient',
                detailType: text === undefined ? undefined : '503',
              });
            });
          }
        } else {
          it('status ERROR alone: classified from its message', () => {
            const span = toolSpan((s) =>
              statusOnly(s, { code: SpanStatusCode.ERROR, message: 'upstream answered HTTP 503' }),
            );
            expectFailure(span, { errorType: '503', kind: 'transient' });
          });
        }

        if (family.readErrorResult) {
          it('an error result the framework records its own way: read by the family, classified from its text', () => {
            expect(sample.recordErrorResult, 'the sample says how the framework records it').to.be.a(
              'function',
            );
            const span = toolSpan((s) => sample.recordErrorResult!(s, 'upstream answered HTTP 503'));
            expectFailure(span, { errorType: '503', kind: 'transient' });
          });
        }

        if (family.ownErrorType) {
          it("the framework's own error.type gives way to the tool's error", () => {
            const span = toolSpan((s) => {
              s.setAttribute('error.type', 'TOOL_EXECUTION_FAILED');
              s.recordException(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
              s.setStatus({ code: SpanStatusCode.ERROR });
            });
            expectFailure(span, { errorType: 'ECONNREFUSED', kind: 'network' });
          });
        } else {
          it('an error.type the framework wrote is kept, its kind read from it', () => {
            const span = toolSpan((s) => {
              s.setAttribute('error.type', 'ETIMEDOUT');
              s.setStatus({ code: SpanStatusCode.ERROR, message: 'lookup failed' });
            });
            expectFailure(span, { errorType: 'ETIMEDOUT', kind: 'timeout' });
          });
        }
      });
    }
  });
}
