import type { SpanContext } from '@opentelemetry/api';
import { MAX_TRACKED_PARENT_SPANS, readHttpOutcome, type HttpFailure } from './http-child-evidence';
import type { ReadableSpanLike } from '../tool-span/span-shape';

/**
 * For `ToolErrorSpanProcessor`: the tool spans open now, and for each the outcome of the last HTTP
 * call made under it. A call counts for its nearest tool span, however deep: a tool calling a
 * helper that calls `fetch` (tool -> helper span -> HTTP span). Only the last call to end counts:
 * a tool that retried after a 503 and then succeeded, or fell back to another source, did not fail
 * because of that 503. A nested tool span keeps its own calls.
 *
 * Keyed by `SpanContext` objects (the SDK hands out one per span, and a child's
 * `parentSpanContext` is its parent's): a span never added has no identity hash, so the lookups
 * for spans outside any tool miss at once, without hashing their id strings (BENCHMARKS.md).
 * Not the spans themselves: 10,000 never-ended spans would stay alive (~1 KB each). Both maps are
 * bounded, oldest first.
 */
export class OpenToolSpans {
  /** Open tool spans -> the outcome of the last HTTP call under each. */
  private readonly lastCall = new Map<SpanContext, HttpFailure | undefined>();
  /** Open spans started under an open tool span -> that tool span, their nearest. */
  private readonly toolOf = new Map<SpanContext, SpanContext>();
  /**
   * Tool spans that ended while spans under them still ran, in pipelines that mark at `onEnd`
   * (`@vercel/otel`'s fetch spans end after their tool span): the span, to mark again.
   */
  private readonly waiting = new Map<SpanContext, ReadableSpanLike>();

  constructor(private readonly cap: number = MAX_TRACKED_PARENT_SPANS) {}

  /** How many tool spans are open. */
  get size(): number {
    return this.lastCall.size;
  }

  /** How many spans under open tool spans are followed. */
  get descendants(): number {
    return this.toolOf.size;
  }

  /** How many tool spans are followed: open ones, and ended ones whose calls still run. */
  get following(): number {
    return this.lastCall.size + this.waiting.size;
  }

  /** A tool span started. */
  open(tool: SpanContext): void {
    bounded(this.lastCall, this.cap).set(tool, undefined);
  }

  /** Any other span started: it belongs to the tool span its parent is, or belongs to. */
  started(span: ReadableSpanLike): void {
    const parent = span.parentSpanContext;
    if (parent === undefined) return;
    const tool = this.lastCall.has(parent) ? parent : this.toolOf.get(parent);
    if (tool !== undefined) bounded(this.toolOf, this.cap).set(span.spanContext(), tool);
  }

  /**
   * A span other than an open tool span ended: an HTTP call's outcome goes to its tool span. A
   * failed call under a tool span that ended before it (`closeAndWait`) is returned with that span.
   */
  ended(span: ReadableSpanLike): { tool: ReadableSpanLike; failure: HttpFailure } | undefined {
    const spanContext = span.spanContext();
    const tool = this.toolOf.get(spanContext);
    if (tool === undefined) {
      // A tool span recognised at start but not at its end: it is no longer followed.
      this.lastCall.delete(spanContext);
      return undefined;
    }
    this.toolOf.delete(spanContext);
    const outcome = readHttpOutcome(span);
    if (this.lastCall.has(tool)) {
      if (outcome !== null) this.lastCall.set(tool, outcome);
      return undefined;
    }
    const waiting = this.waiting.get(tool);
    if (waiting === undefined) return undefined;
    if (!this.hasOpenSpansUnder(tool)) this.waiting.delete(tool);
    return outcome ? { tool: waiting, failure: outcome } : undefined;
  }

  /** A tool span ended: the last HTTP failure under it, forgetting it. */
  close(tool: SpanContext): HttpFailure | undefined {
    const failure = this.lastCall.get(tool);
    this.lastCall.delete(tool);
    // Spans still open under it (a call left running) can no longer count for it.
    if (this.lastCall.size === 0) this.toolOf.clear();
    return failure;
  }

  /**
   * A tool span ended where the pipeline marks at `onEnd`: as `close`, and while spans under it
   * still run, the span waits for them (bounded, oldest first).
   */
  closeAndWait(tool: SpanContext, span: ReadableSpanLike): HttpFailure | undefined {
    const failure = this.lastCall.get(tool);
    this.lastCall.delete(tool);
    if (this.hasOpenSpansUnder(tool)) bounded(this.waiting, this.cap).set(tool, span);
    else if (this.lastCall.size === 0 && this.waiting.size === 0) this.toolOf.clear();
    return failure;
  }

  clear(): void {
    this.lastCall.clear();
    this.toolOf.clear();
    this.waiting.clear();
  }

  private hasOpenSpansUnder(tool: SpanContext): boolean {
    for (const nearest of this.toolOf.values()) if (nearest === tool) return true;
    return false;
  }
}

/** The map, with its oldest entry dropped when it is full. A Map iterates in insertion order. */
function bounded<K, V>(map: Map<K, V>, cap: number): Map<K, V> {
  if (map.size >= cap) map.delete(map.keys().next().value as K);
  return map;
}
