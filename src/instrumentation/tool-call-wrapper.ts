import { types } from 'node:util';
import {
  context,
  createContextKey,
  diag,
  SpanKind,
  trace,
  type Attributes,
  type Context,
  type Exception,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import {
  classifyToolError,
  classifyToolResult,
  isStrongerEvidence,
  type ToolErrorClassification,
} from '../classify';
import {
  argumentTexts,
  MAX_EXCEPTION_TEXT_LENGTH,
  redactForCapture,
  redactStack,
  redactText,
} from '../redact';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '../semconv';
import { recognizeToolSpan, missingToolName, type ToolSpanFamily } from '../processor/tool-span-recognition';
import type { ReadableSpanLike } from '../processor/span-shape';
import { isObjectLike, read, readString } from '../classify/safe';
import { markSpanFailed } from '../tool-span/marked-failure';
import type { ToolInstrumentationConfig } from './config';

export interface ToolCallInfo {
  name: string;
  callId?: string;
  description?: string;
  type?: 'function' | 'extension' | 'datastore';
  /**
   * Recorded only when `captureArguments` is on (redacted, truncated). While it is off, its string
   * values are hidden from the error text the span carries (status message, exception event).
   */
  args?: unknown;
}

export interface ToolCallOptions {
  /** Per-framework detection of a *returned* error; defaults to `classifyToolResult`. */
  classifyResult?: (result: unknown) => ToolErrorClassification | undefined;
  /**
   * `run` returns a thenable that does no work when `then` is called (one the adapter settles by
   * hand): watch it like a promise. Other thenables that are not native promises are left alone.
   */
  eagerThenable?: boolean;
}

/** What the attributes hook learns about a finished call. */
export interface ToolCallOutcome {
  /** The returned (or resolved) value; absent when the call threw or streamed. */
  result?: unknown;
  /** The thrown (or rejected) value. */
  error?: unknown;
  /** Present when the call failed, thrown or returned: the strongest classification recorded. */
  classification?: ToolErrorClassification;
}

const logger = diag.createComponentLogger({ namespace: 'otel-tool-errors' });
const TOOL_CALL_KEY = createContextKey('otel-tool-errors.toolCall');

/**
 * The strongest classification written on one span, so a weaker one never overwrites it. Shared by
 * every call on that span: a nested call finds its outer call's through the context (a WeakMap
 * entry per call cost ~0.6 µs a failure, BENCHMARKS.md), and calls that enrich a framework's span
 * share one through `frameworkSpanMarks`, since they need not be nested.
 */
interface SpanMarks {
  classification?: ToolErrorClassification;
}
const frameworkSpanMarks = new WeakMap<Span, SpanMarks>();

/**
 * Runs `run` as one tool execution: starts `execute_tool {name}` (or enriches the active framework
 * tool span), classifies throws and returned errors, never changes behaviour: the same value is
 * returned or thrown, synchronously if `run` is synchronous. Promises are returned as they are;
 * async iterators, iterables and Node streams keep their identity and end the span when they end.
 * Any other thenable ends the span when `run` returns (see ToolCall.settle).
 * A web `ReadableStream` is the one exception: it comes back as a new stream that reads the
 * original on demand (same chunks, same error, same cancel), since `pipeTo`/`tee` bypass patching.
 */
export function traceToolCall<T>(
  tracer: Tracer,
  config: ToolInstrumentationConfig,
  info: ToolCallInfo,
  run: () => T,
  options: ToolCallOptions = {},
): T {
  const call = startToolCall(tracer, config, info, options);
  if (!call) return run();
  let result: T;
  try {
    result = context.with(call.context, run);
  } catch (err) {
    call.fail(err);
    throw err;
  }
  return call.settle(result);
}

/**
 * Records an error the framework is about to swallow (or re-wrap) on the tool call running in the
 * active context: the real error object seen in an inner function, for the span of an outer call.
 * Does nothing outside a tool call.
 */
export function recordToolError(err: unknown): void {
  try {
    const call = context.active().getValue(TOOL_CALL_KEY) as ToolCall | undefined;
    call?.note(err);
  } catch (e) {
    logger.error('recordToolError failed', e);
  }
}

/**
 * The active span's tool-span family when it is a tool span for `toolName` (recognised the way the
 * processor does: GenAI `execute_tool`, ADK, AI SDK `ai.toolCall`, Genkit, VoltAgent, …), else
 * `undefined`. SDK span fields are read by duck typing, never trusted to exist.
 */
function frameworkToolSpanFamily(span: Span, toolName: string): ToolSpanFamily | undefined {
  const view = { name: readName(span) ?? '', attributes: readAttributes(span) } as ReadableSpanLike;
  const family = recognizeToolSpan(view, undefined);
  if (!family) return undefined;
  const name = view.attributes[ATTR_GEN_AI_TOOL_NAME] ?? missingToolName(view, family);
  return name === undefined || name === toolName ? family : undefined;
}

/** `owner`: we started the span. `framework`: the framework's span. `nested`: an outer call of ours. */
type SpanRole = 'owner' | 'framework' | 'nested';

function startToolCall(
  tracer: Tracer,
  config: ToolInstrumentationConfig,
  info: ToolCallInfo,
  options: ToolCallOptions,
): ToolCall | undefined {
  try {
    const parent = context.active();
    const active = trace.getSpan(parent);
    const family = active?.isRecording() ? frameworkToolSpanFamily(active, info.name) : undefined;
    if (active && family) {
      const present = readAttributes(active);
      // Another convention's span keeps its own operation name (backends key on it); see the processor.
      const missing = Object.entries(describe(info, config)).filter(
        ([key]) => present[key] === undefined && (family === 'gen_ai' || key !== ATTR_GEN_AI_OPERATION_NAME),
      );
      if (missing.length > 0) active.setAttributes(Object.fromEntries(missing));
      // The call that made `active` active, if it was ours: read from the context rather than
      // kept in a WeakSet of our spans, whose entry per call cost ~0.24 µs (BENCHMARKS.md).
      const outer = parent.getValue(TOOL_CALL_KEY) as ToolCall | undefined;
      if (outer?.span === active && outer.role !== 'framework') {
        return new ToolCall(active, 'nested', outer.marks, parent, config, info, options);
      }
      return new ToolCall(active, 'framework', frameworkMarks(active), parent, config, info, options);
    }
    const span = tracer.startSpan(
      `execute_tool ${info.name}`,
      { kind: SpanKind.INTERNAL, attributes: describe(info, config) },
      parent,
    );
    return new ToolCall(span, 'owner', {}, parent, config, info, options);
  } catch (err) {
    logger.error('could not start the tool span', err);
    return undefined;
  }
}

function frameworkMarks(span: Span): SpanMarks {
  let marks = frameworkSpanMarks.get(span);
  if (marks === undefined) frameworkSpanMarks.set(span, (marks = {}));
  return marks;
}

function describe(info: ToolCallInfo, config: ToolInstrumentationConfig): Attributes {
  // Literal keys (ATTR_GEN_AI_OPERATION_NAME, ATTR_GEN_AI_TOOL_NAME): an object literal with
  // computed keys took ~130 ns a call, this ~15 ns (BENCHMARKS.md).
  const attributes: Attributes = {
    'gen_ai.operation.name': GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
    'gen_ai.tool.name': info.name,
  };
  if (info.callId !== undefined) attributes[ATTR_GEN_AI_TOOL_CALL_ID] = info.callId;
  if (info.description !== undefined) attributes[ATTR_GEN_AI_TOOL_DESCRIPTION] = info.description;
  if (info.type !== undefined) attributes[ATTR_GEN_AI_TOOL_TYPE] = info.type;
  if (config.captureArguments && info.args !== undefined) {
    attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = redactForCapture(info.args);
  }
  return attributes;
}

/** One tool execution's span work. Every method is safe: it reports through `diag`, never throws. */
class ToolCall {
  readonly context: Context;
  private finished = false;
  private exceptionRecorded = false;
  /** The argument values error text must not repeat; listed on the first failure. */
  private hiddenTexts: readonly string[] | undefined;

  constructor(
    readonly span: Span,
    readonly role: SpanRole,
    readonly marks: SpanMarks,
    parent: Context,
    private readonly config: ToolInstrumentationConfig,
    private readonly info: ToolCallInfo,
    private readonly options: ToolCallOptions,
  ) {
    this.context = (role === 'owner' ? trace.setSpan(parent, span) : parent).setValue(TOOL_CALL_KEY, this);
  }

  /** The call's return value: watched until it settles, returned as it is (see traceToolCall). */
  settle<T>(result: T): T {
    try {
      if (types.isPromise(result) || (this.options.eagerThenable && isThenable(result))) {
        result.then(
          (value) => this.settleResolved(value),
          (err: unknown) => this.fail(err),
        );
        return result;
      }
      // Any other thenable may be lazy: a query builder (knex, drizzle, Prisma) runs its query
      // each time `then` is called, so watching it would run the tool's work twice. Its span ends
      // here, as the call returns.
      if (isThenable(result)) {
        this.succeed(undefined);
        return result;
      }
      if (isWebReadableStream(result)) return this.watchWebStream(result) as T;
      if (!this.watchStream(result)) this.succeed(result);
    } catch (err) {
      logger.error('could not watch the tool result', err);
      this.finish({});
    }
    return result;
  }

  /** Notes an error the framework will swallow or re-wrap (recordToolError). */
  note(err: unknown): void {
    if (this.finished) return;
    this.failWith(err, false);
  }

  fail(err: unknown): void {
    if (this.finished) return;
    this.finish({ error: err, classification: this.failWith(err, true) });
  }

  private settleResolved(value: unknown): void {
    try {
      // A web stream inside a promise cannot be replaced, so the span ends with the promise.
      if (!isWebReadableStream(value) && this.watchStream(value)) return;
      this.succeed(value);
    } catch (err) {
      logger.error('could not watch the tool result', err);
      this.finish({});
    }
  }

  private succeed(result: unknown): void {
    if (this.finished) return;
    try {
      const classify = this.options.classifyResult ?? classifyToolResult;
      const classification = classify(result);
      if (classification) this.mark(classification, undefined);
      if (this.config.captureResults && result !== undefined) {
        this.span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, redactForCapture(result));
      }
    } catch (err) {
      logger.error('could not classify the tool result', err);
    }
    this.finish({ result, classification: this.marks.classification });
  }

  /** Classifies and marks a thrown error; the owner records it as the span's one exception. */
  private failWith(err: unknown, thrown: boolean): ToolErrorClassification | undefined {
    try {
      const hidden = this.argumentTexts();
      const message = messageOf(err);
      const recordsException = this.role === 'owner' && !this.exceptionRecorded;
      // Redacted once, for both the status and the exception event.
      const redacted =
        message !== undefined && (hidden.length > 0 || recordsException)
          ? redactText(message, MAX_EXCEPTION_TEXT_LENGTH, hidden)
          : undefined;
      this.mark(classifyToolError(err), hidden.length > 0 ? redacted : message);
      if (recordsException) {
        this.exceptionRecorded = true;
        this.span.recordException(redactedException(err, hidden, redacted));
      }
    } catch (e) {
      logger.error(thrown ? 'could not record the tool error' : 'could not record the noted tool error', e);
    }
    return this.marks.classification;
  }

  /** Argument values to hide from error text: none when arguments are captured anyway. */
  private argumentTexts(): readonly string[] {
    this.hiddenTexts ??=
      this.config.captureArguments || this.info.args === undefined ? [] : argumentTexts(this.info.args);
    return this.hiddenTexts;
  }

  /** Writes the classification unless the span already holds one from stronger or equal evidence. */
  private mark(classification: ToolErrorClassification, message: string | undefined): void {
    // An inner layer can finish after the span's owner ended it (a client timeout, then the server).
    if (!this.span.isRecording()) return;
    const previous = this.marks.classification;
    if (previous && !isStrongerEvidence(classification.evidence, previous.evidence)) return;
    this.marks.classification = classification;
    markSpanFailed(this.span, classification, message);
  }

  private finish(outcome: ToolCallOutcome): void {
    if (this.finished) return;
    this.finished = true;
    if (this.role !== 'nested' && this.config.attributesHook && this.span.isRecording()) {
      try {
        this.config.attributesHook(this.span, this.info, outcome);
      } catch (err) {
        logger.error('attributesHook threw', err);
      }
    }
    if (this.role !== 'owner') return;
    try {
      this.span.end();
    } catch (err) {
      logger.error('could not end the tool span', err);
    }
  }

  /** Watches async iterables and Node streams in place; false when `value` is neither. */
  private watchStream(value: unknown): boolean {
    if (isNodeReadable(value)) {
      watchNodeReadable(value, this);
      return true;
    }
    if (isAsyncIterator(value)) {
      if (!instrumentIterator(value, this)) this.succeed(undefined);
      return true;
    }
    if (isAsyncIterable(value)) {
      if (!instrumentIterable(value, this)) this.succeed(undefined);
      return true;
    }
    return false;
  }

  /**
   * A web stream cannot be watched in place (`pipeTo` and `tee` bypass any patched method), so it
   * is read through a new stream that pulls on demand: same chunks, same error, same cancel.
   */
  private watchWebStream(stream: ReadableStream): ReadableStream {
    if (stream.locked) {
      this.succeed(undefined);
      return stream;
    }
    const reader = stream.getReader();
    return new ReadableStream(
      {
        pull: async (controller) => {
          try {
            const { done, value } = await this.runStep(() => reader.read());
            if (done) {
              controller.close();
              this.streamEnded();
            } else controller.enqueue(value);
          } catch (err) {
            this.fail(err);
            controller.error(err);
          }
        },
        cancel: (reason) => {
          this.streamEnded();
          return reader.cancel(reason);
        },
      },
      { highWaterMark: 0 },
    );
  }

  /** Runs iterator steps in the call's context, so spans started while producing chunks nest under it. */
  runStep<R>(step: () => R): R {
    return context.with(this.context, step);
  }

  streamEnded(): void {
    this.succeed(undefined);
  }
}

const ITERATOR_METHODS = ['next', 'return', 'throw'] as const;

/** Replaces `next`/`return`/`throw` on this one iterator (non-enumerable own properties). */
function instrumentIterator(iterator: AsyncIterator<unknown>, call: ToolCall): boolean {
  if (!Object.isExtensible(iterator)) return false;
  const target = iterator as unknown as Record<string, unknown>;
  for (const method of ITERATOR_METHODS) {
    const original = target[method];
    if (typeof original !== 'function') continue;
    Object.defineProperty(target, method, {
      configurable: true,
      enumerable: false,
      writable: true,
      value: function (this: unknown, ...args: unknown[]) {
        let step: unknown;
        try {
          step = call.runStep(() => Reflect.apply(original, this, args));
        } catch (err) {
          call.fail(err);
          throw err;
        }
        // Only a native promise: calling `then` on another thenable may run it again (see settle).
        if (types.isPromise(step)) {
          step.then(
            (res) => {
              if (method !== 'next' || (res as IteratorResult<unknown> | undefined)?.done) call.streamEnded();
            },
            (err: unknown) => call.fail(err),
          );
        }
        return step;
      },
    });
  }
  return true;
}

/** Wraps the iterators this iterable hands out (an own `Symbol.asyncIterator`). */
function instrumentIterable(iterable: AsyncIterable<unknown>, call: ToolCall): boolean {
  if (!Object.isExtensible(iterable)) return false;
  const original = iterable[Symbol.asyncIterator];
  Object.defineProperty(iterable, Symbol.asyncIterator, {
    configurable: true,
    enumerable: false,
    writable: true,
    value: function (this: unknown) {
      const iterator = Reflect.apply(original, this, []) as AsyncIterator<unknown>;
      try {
        if (!instrumentIterator(iterator, call)) call.streamEnded();
      } catch (err) {
        logger.error('could not watch the tool stream', err);
      }
      return iterator;
    },
  });
  return true;
}

interface NodeReadableLike {
  once(event: string, listener: () => void): unknown;
  readonly errored?: unknown;
}

/**
 * Ends the span on `close` (or `end`). It adds no `error` listener on purpose: that would turn an
 * unhandled stream error, which crashes the process, into a handled one.
 */
function watchNodeReadable(stream: NodeReadableLike, call: ToolCall): void {
  stream.once('end', () => call.streamEnded());
  stream.once('close', () => {
    let errored: unknown;
    try {
      errored = stream.errored;
    } catch (err) {
      logger.error('could not read the tool stream error', err);
    }
    if (errored === null || errored === undefined || isStoppedByConsumer(errored)) call.streamEnded();
    else call.fail(errored);
  });
}

/**
 * Whether a stream was destroyed because its consumer stopped before the end: breaking out of
 * `for await`, `iterator().return()`, `take(n)`. Node then destroys it with its own AbortError
 * (`ABORT_ERR`) and no cause. An abort through a signal carries the signal's reason as `cause`, and
 * an error of the tool's own keeps its own shape: both still mark the span.
 */
function isStoppedByConsumer(errored: unknown): boolean {
  return (
    isObjectLike(errored) &&
    read(errored, 'code') === 'ABORT_ERR' &&
    read(errored, 'name') === 'AbortError' &&
    read(errored, 'cause') === undefined
  );
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return isObjectLike(value) && typeof (value as { then?: unknown }).then === 'function';
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    isObjectLike(value) && typeof (value as Record<symbol, unknown>)[Symbol.asyncIterator] === 'function'
  );
}

function isAsyncIterator(value: unknown): value is AsyncIterator<unknown> {
  return isAsyncIterable(value) && typeof (value as { next?: unknown }).next === 'function';
}

function isWebReadableStream(value: unknown): value is ReadableStream {
  return typeof ReadableStream === 'function' && value instanceof ReadableStream;
}

function isNodeReadable(value: unknown): value is NodeReadableLike {
  if (!isObjectLike(value)) return false;
  const stream = value as Record<string, unknown>;
  return typeof stream.pipe === 'function' && typeof stream.once === 'function' && 'readable' in stream;
}

function readAttributes(span: Span): Attributes {
  try {
    const attributes = (span as unknown as { attributes?: unknown }).attributes;
    return isObjectLike(attributes) ? (attributes as Attributes) : {};
  } catch {
    return {};
  }
}

function readName(span: Span): string | undefined {
  try {
    const name = (span as unknown as { name?: unknown }).name;
    return typeof name === 'string' ? name : undefined;
  } catch {
    return undefined;
  }
}

function messageOf(err: unknown): string | undefined {
  return typeof err === 'string' ? err : readString(err, 'message');
}

/**
 * The copy of `err` the exception event is made from: the SDK writes `message` and `stack`
 * verbatim, so both are redacted (`redactedMessage` is `err.message` or a thrown string, already
 * redacted). `code` and `name` are kept, so `exception.type` (`code ?? name`) is what the SDK
 * would write for `err` itself.
 */
function redactedException(
  err: unknown,
  hidden: readonly string[],
  redactedMessage: string | undefined,
): Exception {
  if (!isObjectLike(err))
    return redactedMessage ?? redactText(String(err), MAX_EXCEPTION_TEXT_LENGTH, hidden);
  const exception: { code?: string | number; name?: string; message?: string; stack?: string } = {};
  const code = read(err, 'code');
  if (typeof code === 'string' || typeof code === 'number') exception.code = code;
  const name = read(err, 'name');
  if (typeof name === 'string') exception.name = name;
  if (redactedMessage !== undefined) exception.message = redactedMessage;
  const stack = read(err, 'stack');
  if (typeof stack === 'string') exception.stack = redactStack(stack, MAX_EXCEPTION_TEXT_LENGTH, hidden);
  // With none of the four, the SDK records nothing and says so through `diag`, as it would for `err`.
  return exception as Exception;
}
