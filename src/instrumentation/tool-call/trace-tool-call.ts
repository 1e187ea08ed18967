import {
  context,
  createContextKey,
  diag,
  SpanKind,
  trace,
  type Attributes,
  type Context,
  type Exception,
  type Link,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import {
  classifyToolError,
  classifyToolResult,
  isStrongerEvidence,
  type ToolErrorClassification,
} from '../../classify';
import { makeClassification } from '../../classify/classification';
import {
  argumentTexts,
  MAX_EXCEPTION_TEXT_LENGTH,
  redactForCapture,
  redactStack,
  redactText,
} from '../../redact/text';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_ID,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ERROR_TYPE_VALUE_OTHER,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '../../semconv';
import { recognizeToolSpan, missingToolName, type ToolSpanFamily } from '../../tool-span/recognition';
import type { ReadableSpanLike } from '../../tool-span/span-shape';
import { isObjectLike, read, readString } from '../../classify/safe';
import { hideArgumentsOn } from '../../tool-span/hidden-arguments';
import { markSpanFailed } from '../../tool-span/marked-failure';
import type { ToolInstrumentationConfig } from '../config';
import {
  eagerThenable,
  isPlainPromise,
  isWebReadableStream,
  observeNow,
  observeWhenCallerDoes,
  watchStream,
  watchWebStream,
  type ResultObserver,
} from './promise-watch';
import { toolSpanName } from '../../tool-span/span-name';

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
  /** More attributes for the span (a protocol's own, such as `mcp.method.name`), also when enriching. */
  attributes?: Attributes;
}

export interface ToolCallOptions {
  /** Per-framework detection of a *returned* error; defaults to `classifyToolResult`. */
  classifyResult?: (result: unknown) => ToolErrorClassification | undefined;
  /**
   * `run` returns a thenable that does no work when `then` is called (one the adapter settles by
   * hand): watch it like a promise. Other thenables that are not native promises are left alone.
   */
  eagerThenable?: boolean;
  /** The operation that names a span when one is started (`{operation} {name}`, capped) and its kind; default `execute_tool`, INTERNAL. */
  spanOperation?: string;
  spanKind?: SpanKind;
  /**
   * Always start a new span under this context (a remote parent extracted from a request), never
   * enrich the active span; the active span, if another, is linked.
   */
  parent?: Context;
  /**
   * The `error.type` of a call that returned an error result, on a span this call started: a
   * protocol's fixed value (MCP: `tool_error`). The finer type goes to `tool.error_detail_type`.
   */
  errorResultType?: string;
  /** Called once when the call throws, with the span it marked, to add what the protocol knows. */
  onError?: (span: Span, err: unknown) => void;
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
  /**
   * The strongest failure of nested calls on the span (same tool, called inside itself), written
   * only if the outermost call fails too: an outer call that recovered leaves the span unmarked.
   */
  nested?: { classification: ToolErrorClassification; message: string | undefined };
  /** The status text written with `classification`. */
  message?: string;
  exceptionRecorded?: boolean;
}
const frameworkSpanMarks = new WeakMap<Span, SpanMarks>();

/**
 * Runs `run` as one tool execution: starts `execute_tool {name}` (or enriches the active framework
 * tool span), classifies throws and returned errors, never changes behaviour: the same value is
 * returned or thrown, synchronously if `run` is synchronous. Returned objects are not modified.
 * Promises are returned as they are and observed once their caller observes them, so an
 * unhandled rejection stays the app's; Promise subclasses, got's `PCancelable` and Bluebird are
 * observed through `then` at once. Async generators and Node streams keep their identity and end
 * the span when they end; any other thenable or async iterable ends the span when `run` returns
 * (see ToolCall.settle). A web `ReadableStream` is the one exception: it comes back as a new
 * stream that reads the original on demand (same chunks, same error, same cancel), since
 * `pipeTo`/`tee` bypass patching.
 */
export function traceToolCall<T>(
  tracer: Tracer,
  config: ToolInstrumentationConfig,
  info: ToolCallInfo,
  run: () => T,
  options: ToolCallOptions = {},
): T {
  return traceFunctionCall(tracer, config, info, run, undefined, [], options);
}

/**
 * `traceToolCall` for `fn` called with `self` and `args`: `fn` runs in the call's context through a
 * bound copy, not a closure, so that each level of a tool calling itself costs few stack frames.
 */
export function traceFunctionCall<T>(
  tracer: Tracer,
  config: ToolInstrumentationConfig,
  info: ToolCallInfo,
  fn: (...args: any[]) => T,
  self: unknown,
  args: unknown[],
  options: ToolCallOptions = {},
): T {
  const call = startToolCall(tracer, config, info, options);
  if (!call) return Reflect.apply(fn, self, args);
  let result: T;
  try {
    // A nested call runs in its outer call's context (same span). The context manager calls its
    // callback with `this` null, not undefined, hence the bound copy.
    result =
      call.role === 'nested'
        ? (Reflect.apply(fn, self, args) as T)
        : context.with(call.context, () => Reflect.apply(fn, self, args) as T);
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
 * The argument values of the tool call running in `ctx` that telemetry must not repeat (none when
 * arguments are captured), or `undefined` outside a tool call.
 */
export function argumentTextsToHide(ctx: Context): readonly string[] | undefined {
  const call = ctx.getValue(TOOL_CALL_KEY) as ToolCall | undefined;
  return call?.hiddenArgumentTexts();
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
    if (options.parent) return startUnder(tracer, config, info, options, options.parent);
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
      if (outer?.span === active) {
        return new ToolCall(active, 'nested', outer.marks, parent, config, info, options);
      }
      return new ToolCall(active, 'framework', frameworkMarks(active), parent, config, info, options);
    }
    const span = tracer.startSpan(
      toolSpanName(info.name, options.spanOperation),
      { kind: options.spanKind ?? SpanKind.INTERNAL, attributes: describe(info, config) },
      parent,
    );
    return new ToolCall(span, 'owner', {}, parent, config, info, options);
  } catch (err) {
    logger.error('could not start the tool span', err);
    return undefined;
  }
}

/**
 * A span under `parent` (a remote parent, or the active context when the request carried none),
 * linked to the active span when that is another one, as the MCP conventions ask of servers.
 */
function startUnder(
  tracer: Tracer,
  config: ToolInstrumentationConfig,
  info: ToolCallInfo,
  options: ToolCallOptions,
  remote: Context,
): ToolCall {
  const ambient = context.active();
  const remoteSpan = trace.getSpan(remote)?.spanContext();
  const parent = remoteSpan && trace.isSpanContextValid(remoteSpan) ? remote : ambient;
  const ambientSpan = trace.getSpan(ambient)?.spanContext();
  const links: Link[] =
    parent === remote && ambientSpan && ambientSpan.spanId !== remoteSpan?.spanId
      ? [{ context: ambientSpan }]
      : [];
  const span = tracer.startSpan(
    toolSpanName(info.name, options.spanOperation),
    { kind: options.spanKind ?? SpanKind.INTERNAL, attributes: describe(info, config), links },
    parent,
  );
  return new ToolCall(span, 'owner', {}, parent, config, info, options);
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
  if (info.attributes !== undefined) Object.assign(attributes, info.attributes);
  if (config.captureArguments && info.args !== undefined) {
    attributes[ATTR_GEN_AI_TOOL_CALL_ARGUMENTS] = redactForCapture(info.args);
  }
  return attributes;
}

/** One tool execution's span work. Every method is safe: it reports through `diag`, never throws. */
class ToolCall implements ResultObserver {
  readonly context: Context;
  private finished = false;
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
    // A nested call keeps its outer call's context: errors noted inside it mark the same span.
    this.context =
      role === 'nested'
        ? parent
        : (role === 'owner' ? trace.setSpan(parent, span) : parent).setValue(TOOL_CALL_KEY, this);
  }

  /** The call's return value: watched until it settles, returned as it is (see traceToolCall). */
  settle<T>(result: T): T {
    try {
      if (isPlainPromise(result)) {
        observeWhenCallerDoes(result, this);
        return result;
      }
      const thenable = this.options.eagerThenable && isThenable(result) ? result : eagerThenable(result);
      if (thenable) {
        observeNow(thenable, this);
        return result;
      }
      // Any other thenable may be lazy: a query builder (knex, drizzle, Prisma) runs its query
      // each time `then` is called, so watching it would run the tool's work twice. Its span ends
      // here, as the call returns.
      if (isThenable(result)) {
        this.succeed(undefined);
        return result;
      }
      if (isWebReadableStream(result)) return watchWebStream(result, this) as T;
      if (!watchStream(result, this)) this.succeed(result);
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
    const classification = this.failWith(err, true);
    if (this.options.onError && this.span.isRecording()) {
      try {
        this.options.onError(this.span, err);
      } catch (e) {
        logger.error('could not record the protocol error', e);
      }
    }
    this.finish({ error: err, classification });
  }

  resolved(value: unknown): void {
    try {
      // A web stream inside a promise cannot be replaced, so the span ends with the promise.
      if (!isWebReadableStream(value) && watchStream(value, this)) return;
      this.succeed(value);
    } catch (err) {
      logger.error('could not watch the tool result', err);
      this.finish({});
    }
  }

  failUnobserved(): void {
    if (this.finished) return;
    const classification = makeClassification('internal', ERROR_TYPE_VALUE_OTHER, 'fallback');
    this.mark(classification, 'the returned promise rejected and nothing handled it', true);
    this.finish({ classification: this.marks.classification });
  }

  private succeed(result: unknown): void {
    if (this.finished) return;
    try {
      const classify = this.options.classifyResult ?? classifyToolResult;
      const classification = classify(result);
      if (classification) {
        this.mark(classification, undefined, true);
        if (this.options.errorResultType !== undefined && this.role === 'owner') this.markErrorResult();
      }
      // The conventions record the result of a successful call only.
      else if (this.config.captureResults && result !== undefined) {
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
      const hidden = this.hiddenArgumentTexts();
      // The framework records this error on its own span too: the processor hides them there.
      if (this.role !== 'owner') hideArgumentsOn(this.span, hidden);
      const message = messageOf(err);
      // One exception event, on a span of ours (a nested call records it when the outer did not).
      const recordsException = this.role !== 'framework' && !this.marks.exceptionRecorded;
      // Redacted once, for both the status and the exception event.
      const redacted =
        message !== undefined && (hidden.length > 0 || recordsException)
          ? redactText(message, MAX_EXCEPTION_TEXT_LENGTH, hidden)
          : undefined;
      // A noted error is about to be swallowed: it marks the span whichever call noted it.
      this.mark(classifyToolError(err), hidden.length > 0 ? redacted : message, thrown);
      if (recordsException) {
        this.marks.exceptionRecorded = true;
        this.span.recordException(redactedException(err, hidden, redacted));
      }
    } catch (e) {
      logger.error(thrown ? 'could not record the tool error' : 'could not record the noted tool error', e);
    }
    return this.marks.classification;
  }

  /** Argument values to hide from error text: none when arguments are captured anyway. */
  hiddenArgumentTexts(): readonly string[] {
    this.hiddenTexts ??=
      this.config.captureArguments || this.info.args === undefined ? [] : argumentTexts(this.info.args);
    return this.hiddenTexts;
  }

  /**
   * Writes the classification unless the span already holds one from stronger or equal evidence.
   * A nested call's failure waits in `marks.nested` until the outermost call fails too.
   */
  private mark(
    classification: ToolErrorClassification,
    message: string | undefined,
    failsCall: boolean,
  ): void {
    // An inner layer can finish after the span's owner ended it (a client timeout, then the server).
    if (!this.span.isRecording()) return;
    const marks = this.marks;
    if (failsCall && this.role === 'nested') {
      if (
        !marks.nested ||
        isStrongerEvidence(classification.evidence, marks.nested.classification.evidence)
      ) {
        marks.nested = { classification, message };
      }
      return;
    }
    this.write(classification, message);
    if (failsCall && marks.nested) {
      this.write(marks.nested.classification, marks.nested.message);
      marks.nested = undefined;
    }
  }

  private write(classification: ToolErrorClassification, message: string | undefined): void {
    const previous = this.marks.classification;
    if (previous && !isStrongerEvidence(classification.evidence, previous.evidence)) return;
    this.marks.classification = classification;
    this.marks.message = message;
    markSpanFailed(this.span, classification, message);
  }

  /** The call returned an error result: `error.type` is the protocol's, the finer type is kept beside it. */
  private markErrorResult(): void {
    const { classification, message } = this.marks;
    if (classification && this.span.isRecording())
      markSpanFailed(this.span, classification, message, this.options.errorResultType);
  }

  private finish(outcome: ToolCallOutcome): void {
    if (this.finished) return;
    this.finished = true;
    // The outermost call ended without failing: what failed inside it was recovered from.
    if (this.role !== 'nested') this.marks.nested = undefined;
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

  /** Runs iterator steps in the call's context, so spans started while producing chunks nest under it. */
  runStep<R>(step: () => R): R {
    return context.with(this.context, step);
  }

  streamEnded(): void {
    this.succeed(undefined);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return isObjectLike(value) && typeof (value as { then?: unknown }).then === 'function';
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
