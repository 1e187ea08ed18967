import { trace, type Attributes, type Context, type SpanStatusCode } from '@opentelemetry/api';
import { argumentTextsToHide } from '../tool-span/active-tool-call';
import { hideValues, scrubMessage } from '../redact/text';
import { redactPath, redactQuery, redactUrl, type UrlRedaction } from '../redact/url';
import type { EndingSpanLike, ReadableSpanLike } from '../tool-span/span-shape';
import { recognizeToolSpan } from '../tool-span/recognition';
import { logger } from '../logger';
import { writableEndedSpan } from '../tool-span/ended-span';
import { noticeUser } from '../user-notice';

export interface RedactingSpanProcessorOptions {
  /**
   * Give it the same value as `ToolInstrumentation`'s `captureArguments`. While it is false (the
   * default), spans started under a tool span lose every query value, and the tool's argument
   * values wherever they appear.
   */
  captureArguments?: boolean;
}

const NAME = 'RedactingSpanProcessor';

/** Full URLs, and a path with its query: `url.full` (HTTP conventions), `http.url`, `http.target` (older ones). */
const URL_KEYS = ['url.full', 'http.url', 'http.target'];
const PATH_KEYS = ['url.path'];
const QUERY_KEYS = ['url.query'];

/** How many open spans under tool spans are followed at once; the oldest are forgotten first. */
const MAX_TRACKED_SPANS = 10_000;

/** What the processor knows of an open span that is a tool span or runs under one. */
interface Scope {
  /** Started under a tool span (a tool span itself is not, unless nested in another). */
  readonly underTool: boolean;
  /** The tool's argument values, when `ToolInstrumentation` ran the tool. */
  readonly hidden: readonly string[];
}

const TOOL_SPAN: Scope = { underTool: false, hidden: [] };

/**
 * A `SpanProcessor` that keeps secrets out of the URLs on every span, whoever made it (HTTP client
 * and server instrumentations, fetch, frameworks): in the span's name, `url.full`, `http.url`, `http.target`,
 * `url.path` and `url.query`, credentials in the userinfo become `REDACTED:REDACTED`, the value
 * of a query parameter whose name looks secret (`api_key`, `token`, `sig`, `code`, ...) becomes
 * `REDACTED`, as the HTTP semantic conventions ask, and token-like path segments (webhook URLs)
 * become `REDACTED`.
 *
 * While argument capture is off, a tool's arguments must not leave through the calls it makes: on
 * every span started under a tool span, every query and fragment value becomes `REDACTED`
 * (`?q=tax%20fraud` from a search tool), and the argument values `ToolInstrumentation` knows are
 * hidden from every string attribute, event attribute and the status message.
 *
 * It writes in `onEnding`, before any processor's `onEnd`, so every exporter sees the redacted
 * values wherever it sits in `spanProcessors`. In a pipeline that never calls `onEnding`
 * (`@vercel/otel`, sdk-trace-base < 2.3) it writes in `onEnd` instead, which reaches the exporters
 * of processors listed after it and of batching ones. Never throws.
 */
export class RedactingSpanProcessor {
  private readonly captureArguments: boolean;
  private readonly scopes = new Map<string, Scope>();
  private sawOnEnding = false;
  /** Set once the first span ended: whether this pipeline never calls `onEnding`. */
  private redactsAtEnd: boolean | undefined;

  constructor(options: RedactingSpanProcessorOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(
        `${NAME}: options must be an object, got ${options === null ? 'null' : typeof options}`,
      );
    }
    if (options.captureArguments !== undefined && typeof options.captureArguments !== 'boolean') {
      throw new TypeError(
        `${NAME}: captureArguments must be true or false, got ${typeof options.captureArguments} ${JSON.stringify(options.captureArguments)}`,
      );
    }
    this.captureArguments = options.captureArguments === true;
  }

  onStart(span: ReadableSpanLike, parentContext: Context): void {
    if (this.captureArguments) return;
    try {
      const scope = this.scopeOf(span, parentContext);
      if (scope === undefined) return;
      if (this.scopes.size >= MAX_TRACKED_SPANS) this.scopes.delete(this.scopes.keys().next().value!);
      this.scopes.set(span.spanContext().spanId, scope);
    } catch (error) {
      logger.error(`${NAME}: onStart failed`, error);
    }
  }

  onEnding(span: EndingSpanLike): void {
    this.sawOnEnding = true;
    this.redact(span);
  }

  private redact(span: EndingSpanLike): void {
    try {
      const scope = this.scopes.size === 0 ? undefined : this.scopes.get(span.spanContext().spanId);
      const underTool = scope?.underTool === true;
      const redaction: UrlRedaction = { allQueryValues: underTool, hidden: underTool ? scope.hidden : [] };
      redactUrlsInName(span, redaction);
      redactAttributes(span, URL_KEYS, (value) => redactUrl(value, redaction));
      redactAttributes(span, PATH_KEYS, (value) => redactPath(value, redaction));
      redactAttributes(span, QUERY_KEYS, (value) => redactQuery(value, redaction));
      if (underTool && scope.hidden.length > 0) hideEverywhere(span, scope.hidden);
    } catch (error) {
      logger.error(`${NAME}: onEnding failed`, error);
    }
  }

  onEnd(span: ReadableSpanLike): void {
    // The SDK calls `onEnding` just before `onEnd`: without it on the first span, it never will.
    this.redactsAtEnd ??= !this.sawOnEnding && this.noOnEnding();
    if (this.redactsAtEnd) this.redactEnded(span);
    if (this.scopes.size > 0) this.scopes.delete(span.spanContext().spanId);
  }

  private noOnEnding(): boolean {
    logger.info(
      `${NAME}: SpanProcessor.onEnding is never called in this pipeline, so spans are redacted in onEnd: ` +
        'list this processor before the ones that export (in @vercel/otel, before "auto").',
    );
    return true;
  }

  private redactEnded(span: ReadableSpanLike): void {
    const writable = writableEndedSpan(span);
    if (writable) return this.redact(writable);
    this.redactsAtEnd = false;
    noticeUser(
      `${NAME}: this pipeline never calls SpanProcessor.onEnding and its ended spans cannot be written, so ` +
        'URLs and tool arguments on spans are not redacted. Use an SDK that calls onEnding ' +
        '(@opentelemetry/sdk-trace-base >= 2.3.0) for this processor.',
      { diag: logger },
    );
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    this.scopes.clear();
    return Promise.resolve();
  }

  /** A tool span, or a span under one (through the tool call in the context, or a followed parent). */
  private scopeOf(span: ReadableSpanLike, parentContext: Context): Scope | undefined {
    const fromCall = argumentTextsToHide(parentContext);
    if (fromCall !== undefined) return { underTool: true, hidden: fromCall };
    const parentId = trace.getSpanContext(parentContext)?.spanId;
    const parent = parentId === undefined ? undefined : this.scopes.get(parentId);
    if (parent !== undefined) return parent.underTool ? parent : { underTool: true, hidden: [] };
    return recognizeToolSpan(span, undefined) === undefined ? undefined : TOOL_SPAN;
  }
}

/** A URL in a span's name, as some fetch instrumentations write it: `fetch GET https://…?key=…`. */
function redactUrlsInName(span: EndingSpanLike, redaction: UrlRedaction): void {
  const name = span.name;
  if (!name.includes('://')) return;
  const redacted = name.replace(/\b[a-z][a-z0-9+.-]{0,20}:\/\/\S+/gi, (url) => redactUrl(url, redaction));
  if (redacted !== name) span.updateName(redacted);
}

function redactAttributes(
  span: EndingSpanLike,
  keys: readonly string[],
  redact: (value: string) => string,
): void {
  for (const key of keys) {
    const value = span.attributes[key];
    if (typeof value !== 'string') continue;
    const redacted = redact(value);
    if (redacted !== value) span.setAttribute(key, redacted);
  }
}

/** Hides the tool's argument values from every string attribute, event attribute and the status message. */
function hideEverywhere(span: EndingSpanLike, hidden: readonly string[]): void {
  for (const [key, value] of Object.entries(span.attributes)) {
    const redacted = hiddenIn(value, hidden);
    if (redacted !== value) span.setAttribute(key, redacted as string | string[]);
  }
  const events = span.events as ReadableSpanLike['events'][number][];
  for (let i = 0; i < events.length; i++) {
    const event = events[i]!;
    if (event.attributes === undefined) continue;
    let changed = false;
    const attributes: Attributes = {};
    for (const [key, value] of Object.entries(event.attributes)) {
      attributes[key] = hiddenIn(value, hidden) as Attributes[string];
      changed ||= attributes[key] !== value;
    }
    if (changed) events[i] = { ...event, attributes };
  }
  const message = span.status.message;
  if (message !== undefined) {
    const redacted = hideValues(message, hidden);
    if (redacted !== message)
      span.setStatus({ code: span.status.code as SpanStatusCode, message: scrubMessage(redacted) });
  }
}

function hiddenIn(value: unknown, hidden: readonly string[]): unknown {
  if (typeof value === 'string') return hideValues(value, hidden);
  if (!Array.isArray(value) || !value.some((item) => typeof item === 'string')) return value;
  const items = value.map((item: unknown) => (typeof item === 'string' ? hideValues(item, hidden) : item));
  return items.some((item, i) => item !== value[i]) ? items : value;
}
