import { SpanStatusCode, type Context, type Span, type SpanStatus } from '@opentelemetry/api';
import { argumentsHiddenOn } from '../tool-span/hidden-arguments';
import { INSTRUMENTATION_NAME } from '../tool-span/scope';
import { redactExceptionEvents, type EventLike } from '../redact/exception';
import { OpenToolSpans } from './open-tool-spans';
import { haltedSpanRepair } from './halted-span';
import { markToolSpan } from './mark-tool-span';
import type { HttpFailure } from './http-child-evidence';
import type { EndingSpanLike, ReadableSpanLike } from '../tool-span/span-shape';
import {
  guardMatcher,
  missingGenAiAttributes,
  recognizeToolSpan,
  type ToolSpanMatcher,
} from '../tool-span/recognition';
import { logger } from '../logger';
import { writableEndedSpan } from '../tool-span/ended-span';
import { noticeUser } from '../user-notice';

export interface ToolErrorSpanProcessorOptions {
  /**
   * Marks more spans as tool spans, beyond the recognised frameworks. Called with the span at
   * start (for HTTP-child tracking) and again when it ends; keep it cheap, it sees every span.
   */
  isToolSpan?: (span: ReadableSpanLike) => boolean;
}

const NAME = 'ToolErrorSpanProcessor';

/**
 * A `SpanProcessor` that marks failed tool-execution spans: `error.type`, `tool.error_kind`,
 * `tool.error_retryable`, `tool.error_executed` and status ERROR with a scrubbed description.
 * It also fills `gen_ai.tool.name` and `gen_ai.tool.call.id` on tool spans whose framework records
 * them elsewhere, and redacts the `exception` events frameworks record on their tool spans
 * (message and stack).
 *
 * It writes in `onEnding` (sdk-trace-base ≥ 2.3, and the 3.x `@opentelemetry/sdk-trace`), which
 * runs before any processor's `onEnd`, so it may sit anywhere in `spanProcessors`. In a pipeline
 * that never calls `onEnding` (`@vercel/otel`, sdk-trace-base < 2.3) it writes in `onEnd` instead,
 * which reaches the exporters of processors listed after it and of batching ones.
 *
 * Typed structurally: it needs only `@opentelemetry/api`, never an SDK package.
 */
export class ToolErrorSpanProcessor {
  private readonly isToolSpan: ToolSpanMatcher | undefined;
  /** Followed from start, so that the HTTP calls made under them can count as evidence. */
  private readonly openToolSpans = new OpenToolSpans();
  private sawOnEnding = false;
  private checkedOnEnding = false;
  /** Set when this pipeline never calls `onEnding`: spans are marked in `onEnd`. */
  private marksAtEnd = false;

  constructor(options: ToolErrorSpanProcessorOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(
        `${NAME}: options must be an object, got ${options === null ? 'null' : typeof options}`,
      );
    }
    this.isToolSpan = guardMatcher(options.isToolSpan, NAME);
  }

  onStart(span: ReadableSpanLike, _parentContext: Context): void {
    if (this.checkedOnEnding && !this.sawOnEnding && !this.marksAtEnd) return;
    try {
      if (recognizeToolSpan(span, this.isToolSpan) !== undefined) this.openToolSpans.open(span.spanContext());
      else if (this.openToolSpans.size > 0) this.openToolSpans.started(span);
    } catch (error) {
      logger.error(`${NAME}: onStart failed`, error);
    }
  }

  onEnding(span: EndingSpanLike): void {
    this.sawOnEnding = true;
    this.mark(span);
  }

  private mark(span: EndingSpanLike): void {
    try {
      const family = recognizeToolSpan(span, this.isToolSpan);
      if (family === undefined) return;
      const httpChild = this.marksAtEnd
        ? this.openToolSpans.closeAndWait(span.spanContext(), span)
        : this.openToolSpans.close(span.spanContext());
      const missing = missingGenAiAttributes(span, family);
      if (missing !== undefined)
        for (const [key, value] of Object.entries(missing)) span.setAttribute(key, value!);
      // The tool's argument values, when ToolInstrumentation ran inside this framework span with capture off.
      const hidden = argumentsHiddenOn(span);
      markToolSpan(errorStatusWriter(span), span, family, httpChild, hidden);
      const repair = haltedSpanRepair(span);
      if (repair !== undefined) {
        // The SDK ignores a status set back to UNSET and has no way to remove an attribute; the
        // span is still the processor's to change in onEnding.
        (span as { status: SpanStatus }).status = repair.status;
        (span.events as unknown[]).splice(0, span.events.length, ...repair.events);
        for (const key of repair.dropped) delete (span.attributes as Record<string, unknown>)[key];
      }
      // Our own spans' exception events are recorded redacted already.
      if (span.events.length > 0 && !madeByUs(span))
        redactExceptionEvents(span.events as EventLike[], hidden);
    } catch (error) {
      logger.error(`${NAME}: onEnding failed`, error);
    }
  }

  onEnd(span: ReadableSpanLike): void {
    if (!this.checkedOnEnding) this.checkOnEnding();
    if (this.marksAtEnd) this.markEnded(span);
    if (this.openToolSpans.following === 0) return;
    try {
      const late = this.openToolSpans.ended(span);
      if (late !== undefined) this.markAgain(late.tool, late.failure);
    } catch (error) {
      logger.error(`${NAME}: onEnd failed`, error);
    }
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    this.openToolSpans.clear();
    return Promise.resolve();
  }

  /** @internal For tests: how many started tool spans are followed now (never above 10,000). */
  get _openToolSpanCount(): number {
    return this.openToolSpans.size;
  }

  /** @internal For tests: how many spans under open tool spans are followed (never above 10,000). */
  get _openDescendantCount(): number {
    return this.openToolSpans.descendants;
  }

  /**
   * The SDK calls `onEnding` just before `onEnd` of the same span, so if the first `onEnd` came
   * without it, this SDK (older than sdk-trace-base 2.3) or a wrapping processor never will.
   */
  private checkOnEnding(): void {
    this.checkedOnEnding = true;
    if (this.sawOnEnding) return;
    this.marksAtEnd = true;
    logger.info(
      `${NAME}: SpanProcessor.onEnding is never called in this pipeline, so failed tool spans are marked in onEnd: ` +
        'list this processor before the ones that export (in @vercel/otel, before "auto").',
    );
  }

  /**
   * An HTTP call that failed after its tool span ended (`@vercel/otel`'s fetch spans): the tool
   * span, marked at its end, is marked again with it where it is the stronger evidence. It reaches
   * the batching exporters, which have not sent the span yet.
   */
  private markAgain(tool: ReadableSpanLike, failure: HttpFailure): void {
    const family = recognizeToolSpan(tool, this.isToolSpan);
    if (family === undefined) return;
    markToolSpan(errorStatusWriter(tool as EndingSpanLike), tool, family, failure, argumentsHiddenOn(tool));
  }

  private markEnded(span: ReadableSpanLike): void {
    // Only tool spans are written: no writable view for the others.
    if (recognizeToolSpan(span, this.isToolSpan) === undefined) return;
    const writable = writableEndedSpan(span);
    if (writable) return this.mark(writable);
    this.marksAtEnd = false;
    this.openToolSpans.clear();
    noticeUser(
      `${NAME}: this pipeline never calls SpanProcessor.onEnding and its ended spans cannot be written, so ` +
        'failed tool spans are not marked. Wrap your span exporter in ToolErrorEnrichingExporter instead.',
      { diag: logger },
    );
  }
}

/**
 * Writes through to the span, and makes sure an error status sticks. The SDK keeps an OK status
 * final, but frameworks such as OpenInference, VoltAgent and OpenLLMetry set OK on every call that
 * returned, including calls that returned an error result; with the evidence in hand, ERROR wins
 * (Jaeger's SPM counts only status ERROR). The span is still writable in `onEnding`.
 */
function errorStatusWriter(span: EndingSpanLike): Pick<Span, 'setAttribute' | 'setStatus' | 'spanContext'> {
  return {
    // The mark's evidence is kept on the span context, so that an exporter behind (the enriching
    // exporter, reading an HTTP call that ended after the tool span) knows what it rests on.
    spanContext: () => span.spanContext(),
    setAttribute(key, value) {
      span.setAttribute(key, value);
      return this as Span;
    },
    setStatus(status: SpanStatus) {
      span.setStatus(status);
      if (span.status.code !== SpanStatusCode.ERROR && status.code === SpanStatusCode.ERROR) {
        (span as { status: SpanStatus }).status = { code: SpanStatusCode.ERROR, message: status.message };
      }
      return this as Span;
    },
  };
}

/** Whether `ToolInstrumentation` started the span (2.x and 3.x `instrumentationScope`). */
function madeByUs(span: ReadableSpanLike): boolean {
  return (
    (span as { instrumentationScope?: { name?: string } }).instrumentationScope?.name === INSTRUMENTATION_NAME
  );
}
