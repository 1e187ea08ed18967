import { context, trace, type Context, type Span, type SpanKind } from '@opentelemetry/api';
import { classifyToolError } from '../../classify/classify-error';
import { classifyToolResult } from '../../classify/result';
import { makeClassification, type ToolErrorClassification } from '../../classify/classification';
import { isStrongerEvidence } from '../../classify/evidence';
import { isObjectLike, readString } from '../../classify/safe';
import { logger } from '../../logger';
import { redactedException } from '../../redact/exception';
import { argumentTexts, redactForCapture } from '../../redact/capture';
import { MAX_EXCEPTION_TEXT_LENGTH, redactText } from '../../redact/text';
import { ATTR_GEN_AI_TOOL_CALL_RESULT, ERROR_TYPE_VALUE_OTHER, type ToolCallHalt } from '../../semconv';
import { ACTIVE_TOOL_CALL_KEY, type ActiveToolCall } from '../../tool-span/active-tool-call';
import { hideArgumentsOn } from '../../tool-span/hidden-arguments';
import { markSpanHalted } from '../../tool-span/halted-call';
import { markSpanFailed } from '../../tool-span/marked-failure';
import type { ToolCallInfo, ToolCallOutcome, ToolInstrumentationConfig } from '../types';
import { isPlainPromise, observeNow, observeWhenCallerDoes, promiseSubclass } from './promise-watch';
import { watchThenable } from './thenable-watch';
import { haltOf, type HaltVerdict } from './halt-verdict';
import type { ResultObserver } from './result-observer';
import { readAbortAgainst } from './caller-signal';
import { isWebReadableStream, watchStream, watchWebStream } from './stream-watch';

/**
 * One tool execution's life on its span: marking what failed (the strongest evidence wins),
 * recording the one exception event, and ending the span when the returned value settles.
 */

export interface ToolCallOptions {
  /** Per-framework detection of a *returned* error; defaults to `classifyToolResult`. */
  classifyResult?: (result: unknown) => ToolErrorClassification | undefined;
  /**
   * `run` returns a thenable that does no work when `then` is called (one the adapter settles by
   * hand): watch it like a promise. Other thenables that are not native promises are left alone.
   */
  eagerThenable?: boolean;
  /**
   * `run` is called by the framework, which always reacts to the promise it returns: watch it at
   * once. Promise hooks (see promise-watch.ts) are for promises the app may leave unhandled.
   */
  frameworkHandlesResult?: boolean;
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
  /** The framework's span never gets an exception event from the framework (ADK): record ours on it. */
  recordExceptionOnFrameworkSpan?: boolean;
  /** The abort signal the framework handed the tool, to tell its cancel from a timeout (caller-signal.ts). */
  callerSignal?: unknown;
  /** Called once when the call throws, with the span it marked, to add what the protocol knows. */
  onError?: (span: Span, err: unknown) => void;
  /**
   * What the framework throws to stop the call for someone else (LangGraph's interrupt, a handoff):
   * the call then ends `paused`, `denied` or `handoff`, unmarked, with no exception event.
   */
  haltOfError?: HaltVerdict;
  /** The same for a returned value (a pending or refused approval, a handoff `Command`). */
  haltOfResult?: HaltVerdict;
}

/**
 * The strongest classification written on one span, so a weaker one never overwrites it. Shared by
 * every call on that span: a nested call finds its outer call's through the context (a WeakMap
 * entry per call cost ~0.6 µs a failure, BENCHMARKS.md), and calls that enrich a framework's span
 * share one through `frameworkSpanMarks`, since they need not be nested.
 */
export interface SpanMarks {
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

export function frameworkMarks(span: Span): SpanMarks {
  let marks = frameworkSpanMarks.get(span);
  if (marks === undefined) frameworkSpanMarks.set(span, (marks = {}));
  return marks;
}

/** `owner`: we started the span. `framework`: the framework's span. `nested`: an outer call of ours. */
export type SpanRole = 'owner' | 'framework' | 'nested';

/** One tool execution's span work. Every method is safe: it reports through `diag`, never throws. */
export class ToolCall implements ResultObserver, ActiveToolCall {
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
        : (role === 'owner' ? trace.setSpan(parent, span) : parent).setValue(ACTIVE_TOOL_CALL_KEY, this);
  }

  /** The call's return value: watched until it settles, returned as it is (see traceToolCall). */
  settle<T>(result: T): T {
    try {
      if (isPlainPromise(result)) {
        if (this.options.frameworkHandlesResult) observeNow(result, this);
        else observeWhenCallerDoes(result, this);
        return result;
      }
      const thenable = this.options.eagerThenable && isThenable(result) ? result : promiseSubclass(result);
      if (thenable) {
        observeNow(thenable, this);
        return result;
      }
      // Any other thenable is watched through its caller (a query builder runs its query each
      // time `then` is called), or its span ends here, as the call returns.
      if (isThenable(result)) {
        if (!watchThenable(result, this)) this.succeed(undefined);
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
    if (this.finished || haltOf(this.options.haltOfError, err) !== undefined) return;
    this.failWith(err, false);
  }

  fail(err: unknown): void {
    if (this.finished) return;
    const halt = haltOf(this.options.haltOfError, err);
    if (halt !== undefined) return this.stop(halt, { error: err });
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
    const halt = haltOf(this.options.haltOfResult, result);
    if (halt !== undefined) return this.stop(halt, { result });
    try {
      const classify = this.options.classifyResult ?? classifyToolResult;
      const classification = classify(result);
      // On a span of ours, an error result's `error.type` is the protocol's (MCP: `tool_error`).
      if (classification)
        this.mark(
          classification,
          undefined,
          true,
          this.role === 'owner' ? this.options.errorResultType : undefined,
        );
      // The conventions record the result of a successful call only.
      else if (this.config.captureResults && result !== undefined) {
        this.span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, redactForCapture(result));
      }
    } catch (err) {
      logger.error('could not classify the tool result', err);
    }
    this.finish({ result, classification: this.marks.classification });
  }

  /**
   * Ends a call the framework stopped, saying why and nothing of what it carried (the question put
   * to a human) unless results are captured: no status, no `error.type`. A nested call leaves
   * that to its outer call, which sees the same value.
   */
  private stop(halt: ToolCallHalt, outcome: ToolCallOutcome): void {
    if (this.role !== 'nested' && this.span.isRecording()) {
      try {
        markSpanHalted(this.span, halt);
        if (this.config.captureResults && outcome.result !== undefined)
          this.span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, redactForCapture(outcome.result));
      } catch (err) {
        logger.error('could not record the stopped tool call', err);
      }
    }
    this.finish({ ...outcome, halt });
  }

  /** Classifies and marks a thrown error; the owner records it as the span's one exception. */
  private failWith(err: unknown, thrown: boolean): ToolErrorClassification | undefined {
    try {
      const hidden = this.hiddenArgumentTexts();
      // The framework records this error on its own span too: the processor hides them there.
      if (this.role !== 'owner') hideArgumentsOn(this.span, hidden);
      const message = messageOf(err);
      // One exception event, on a span of ours (a nested call records it when the outer did not),
      // or on a framework's span the framework records none on.
      const recordsException =
        (this.role !== 'framework' || this.options.recordExceptionOnFrameworkSpan === true) &&
        !this.marks.exceptionRecorded;
      // Redacted once, for both the status and the exception event.
      const redacted =
        message !== undefined && (hidden.length > 0 || recordsException)
          ? redactText(message, MAX_EXCEPTION_TEXT_LENGTH, hidden)
          : undefined;
      // A noted error is about to be swallowed: it marks the span whichever call noted it.
      const classification = readAbortAgainst(classifyToolError(err), this.options.callerSignal);
      this.mark(classification, hidden.length > 0 ? redacted : message, thrown);
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
   * `fixedErrorType`: see `markSpanFailed`; written whichever classification stands.
   */
  private mark(
    classification: ToolErrorClassification,
    message: string | undefined,
    failsCall: boolean,
    fixedErrorType?: string,
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
    let changed = this.keep(classification, message);
    if (failsCall && marks.nested) {
      changed = this.keep(marks.nested.classification, marks.nested.message) || changed;
      marks.nested = undefined;
    }
    if (changed || fixedErrorType !== undefined)
      markSpanFailed(this.span, marks.classification!, marks.message, fixedErrorType);
  }

  /**
   * Keeps the classification if its evidence is stronger than the span's; whether it did. A
   * returned error result brings no text: the text of the error noted before it stays (an MCP
   * server handler's own error, which the SDK turns into that result).
   */
  private keep(classification: ToolErrorClassification, message: string | undefined): boolean {
    const marks = this.marks;
    if (marks.classification && !isStrongerEvidence(classification.evidence, marks.classification.evidence))
      return false;
    marks.classification = classification;
    if (message !== undefined) marks.message = message;
    return true;
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

function messageOf(err: unknown): string | undefined {
  return typeof err === 'string' ? err : readString(err, 'message');
}
