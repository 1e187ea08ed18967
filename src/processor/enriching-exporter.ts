import { type AttributeValue, type Attributes, type Span, type SpanStatus } from '@opentelemetry/api';
import { argumentsHiddenOn } from '../tool-span/hidden-arguments';
import { redactExceptionEvents, type EventLike } from '../redact/exception';
import { ChildHttpFailures } from './http-child-evidence';
import { haltedSpanRepair, withoutDropped } from './halted-span';
import { markToolSpan } from './mark-tool-span';
import type { ReadableSpanLike } from '../tool-span/span-shape';
import {
  guardMatcher,
  missingGenAiAttributes,
  recognizeToolSpan,
  type ToolSpanFamily,
  type ToolSpanMatcher,
} from '../tool-span/recognition';
import { logger } from '../logger';

/** The `SpanExporter` contract, structurally: any SDK line's exporters fit. */
export interface SpanExporterLike<S extends ReadableSpanLike = ReadableSpanLike> {
  export(spans: S[], resultCallback: (result: { code: number; error?: Error }) => void): void;
  shutdown(): Promise<void>;
  forceFlush?(): Promise<void>;
}

export interface ToolErrorEnrichingExporterOptions {
  /** As in `ToolErrorSpanProcessor`: marks more spans as tool spans. */
  isToolSpan?: (span: ReadableSpanLike) => boolean;
}

const NAME = 'ToolErrorEnrichingExporter';

/**
 * Wraps any `SpanExporter` and marks failed tool spans at export time, for SDKs whose processors
 * never get `onEnding` (sdk-trace-base < 2.3, or a wrapping processor that drops it). The same
 * attributes and status as `ToolErrorSpanProcessor`, on copies: the SDK's spans are not touched.
 *
 * Only exporters behind it see the marks (a second exporter on another processor does not), and
 * HTTP-child evidence needs the HTTP span, the spans between it and the tool span, and the tool
 * span to reach this exporter: in end order with both the Simple and the Batch span processor, or
 * in one batch whatever their order (an HTTP span that ends after its tool span).
 */
export class ToolErrorEnrichingExporter<S extends ReadableSpanLike = ReadableSpanLike> {
  private readonly isToolSpan: ToolSpanMatcher | undefined;
  private readonly httpFailures = new ChildHttpFailures();

  constructor(
    private readonly exporter: SpanExporterLike<S>,
    options: ToolErrorEnrichingExporterOptions = {},
  ) {
    if (typeof exporter?.export !== 'function' || typeof exporter.shutdown !== 'function') {
      throw new TypeError(`${NAME}: expected a SpanExporter (with export and shutdown) to wrap`);
    }
    this.isToolSpan = guardMatcher(options.isToolSpan, NAME);
  }

  export(spans: S[], resultCallback: (result: { code: number; error?: Error }) => void): void {
    let enriched = spans;
    try {
      // The batch's other spans first: an HTTP call that ended after its tool span (`@vercel/otel`'s
      // fetch spans do) still reaches it when both are in one batch.
      const families = spans.map((span) => recognizeToolSpan(span, this.isToolSpan));
      spans.forEach((span, i) => {
        if (families[i] === undefined) this.httpFailures.record(span);
      });
      enriched = spans.map((span, i) => {
        const family = families[i];
        return family === undefined ? span : this.enrich(span, family);
      });
    } catch (error) {
      logger.error(`${NAME}: enrichment failed; exporting the spans as they are`, error);
    }
    this.exporter.export(enriched, resultCallback);
  }

  shutdown(): Promise<void> {
    this.httpFailures.clear();
    return this.exporter.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.exporter.forceFlush ? this.exporter.forceFlush() : Promise.resolve();
  }

  private enrich(span: S, family: ToolSpanFamily): S {
    const httpChild = this.httpFailures.take(span.spanContext().spanId);
    const missing = missingGenAiAttributes(span, family);
    const hidden = argumentsHiddenOn(span);
    const attributes: Attributes = { ...span.attributes };
    let status: SpanStatus = span.status as SpanStatus;
    const writer = {
      setAttribute(key: string, value: AttributeValue) {
        attributes[key] = value;
        return this as unknown as Span;
      },
      setStatus(next: SpanStatus) {
        status = next;
        return this as unknown as Span;
      },
    };
    if (missing !== undefined)
      for (const [key, value] of Object.entries(missing)) writer.setAttribute(key, value!);
    const marked = markToolSpan(writer, span, family, httpChild, hidden);
    const repair = haltedSpanRepair(span);
    if (repair !== undefined) status = repair.status;
    const events = [...(repair?.events ?? span.events)] as EventLike[];
    const eventsRedacted = redactExceptionEvents(events, hidden);
    if (missing === undefined && !marked && !eventsRedacted && repair === undefined) return span;
    // The copy reads everything else (span context, times, resource, and whatever fields this SDK
    // line has) from the original through its prototype, so no field is lost or copied.
    return Object.create(span, {
      attributes: {
        value: repair ? withoutDropped(attributes, repair.dropped) : attributes,
        enumerable: true,
      },
      status: { value: status, enumerable: true },
      events: { value: eventsRedacted || repair !== undefined ? events : span.events, enumerable: true },
    }) as S;
  }
}
