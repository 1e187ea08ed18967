import { context, trace, type Context, type Span } from '@opentelemetry/api';
import { classifyToolError } from '../../classify/classify-error';
import { classifyToolResult } from '../../classify/result';
import { makeClassification, type ToolErrorClassification } from '../../classify/classification';
import { FALLBACK_EVIDENCE } from '../../classify/evidence';
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
import { haltOf } from './halt-verdict';
import { readAbortAgainst } from './caller-signal';
import type { CallAttempt } from './call-attempt';
import type { ToolCallSettings } from './options';
import { isPlainPromise, observeNow, observeWhenCallerDoes, promiseSubclass } from './promise-watch';
import type { ResultObserver } from './result-observer';
import type { SpanMarks } from './span-marks';
import { isWebReadableStream, watchStream, watchWebStream } from './stream-watch';
import { watchThenable } from './thenable-watch';

/**
 * One tool call's life on its span, in three states:
 *
 *   started ── returned(a promise, thenable or stream; anything, when the outcome is reported) ──▶ pending
 *   started ── returned(any other value) or failed(err) ──────────────────────────────────────────▶ ended
 *   pending ── resolved(value), failed(err), failedUnobserved() or streamEnded() ──────────────────▶ ended
 *
 * `started`: `run` is running. `pending`: its value is watched until it settles (a promise from
 * the moment its caller observes it, see promise-watch.ts), or the framework's report is awaited.
 * Reaching `ended`, the call settles once, deciding in this order (see `settle`):
 *   1. halted: the framework stopped the call for someone else: paused, denied or handoff, no failure;
 *   2. failed: a thrown error, a rejection nobody observed, or an error result: the span is marked;
 *   3. returned: the result is recorded when results are captured;
 * then `attributesHook` runs and the span ends, if the call started it.
 * `noted(err)` (recordToolError: an error the framework will swallow) marks the span while the call
 * is `started` or `pending`, and changes no state.
 */
type ToolCallState = 'started' | 'pending' | 'ended';

/**
 * What a call settled with: a result (returned, resolved, or a stream's end), an error (thrown,
 * rejected, or a stream's), or a rejection nobody observed (the process got the reason, not us).
 */
type Settlement = 'result' | 'error' | 'unobserved';

/** What `watch` returns for a value that is settled already. */
const SETTLED = Symbol('settled');

/** `owner`: we started the span. `framework`: the framework's span. `nested`: an outer call of ours. */
export type SpanRole = 'owner' | 'framework' | 'nested';

/** One tool execution's span work. Every method is safe: it reports through `diag`, never throws. */
export class ToolCall implements ResultObserver, ActiveToolCall {
  readonly context: Context;
  private state: ToolCallState = 'started';
  /** The argument values error text must not repeat; listed on the first failure. */
  private hiddenTexts: readonly string[] | undefined;

  constructor(
    readonly span: Span,
    readonly role: SpanRole,
    readonly marks: SpanMarks,
    parent: Context,
    private readonly config: ToolInstrumentationConfig,
    private readonly info: ToolCallInfo,
    private readonly options: ToolCallSettings,
    /** Its place among attempts of a failed call (call-attempt.ts); none for a nested call. */
    private readonly attempt?: CallAttempt,
  ) {
    // A nested call keeps its outer call's context: errors noted inside it mark the same span.
    this.context =
      role === 'nested'
        ? parent
        : (role === 'owner' ? trace.setSpan(parent, span) : parent).setValue(ACTIVE_TOOL_CALL_KEY, this);
  }

  /** `run` returned `result`, which is handed back as it is (see traceToolCall). */
  returned<T>(result: T): T {
    if (this.state !== 'started') return result;
    this.state = 'pending';
    if (this.options.outcome === 'reported') return result;
    try {
      const watched = this.watch(result);
      if (watched !== SETTLED) return watched;
      this.settle('result', result);
    } catch (err) {
      logger.error('could not watch the tool result', err);
      this.end({});
    }
    return result;
  }

  /**
   * Starts watching what `run` returned, if it settles later: the value to hand back (the same one,
   * but for a web stream), or `SETTLED` when it is settled already.
   */
  private watch<T>(result: T): T | typeof SETTLED {
    if (isPlainPromise(result)) {
      if (this.options.outcome === 'awaited') observeNow(result, this);
      else observeWhenCallerDoes(result, this);
      return result;
    }
    const subclass = promiseSubclass(result);
    if (subclass) {
      observeNow(subclass, this);
      return result;
    }
    // Any other thenable is watched through its caller (a query builder runs its query each
    // time `then` is called), or its span ends here, as the call returns.
    if (isThenable(result)) {
      if (!watchThenable(result, this)) this.settle('result', undefined);
      return result;
    }
    if (isWebReadableStream(result)) return watchWebStream(result, this) as T;
    return watchStream(result, this) ? result : SETTLED;
  }

  /** A watched promise resolved, or the framework reported a result. */
  resolved(value: unknown): void {
    if (this.state === 'ended') return;
    try {
      // A web stream inside a promise cannot be replaced, so the span ends with the promise.
      if (!isWebReadableStream(value) && watchStream(value, this)) return;
      this.settle('result', value);
    } catch (err) {
      logger.error('could not watch the tool result', err);
      this.end({});
    }
  }

  /** `run` threw, a watched promise rejected, a stream failed, or the framework reported a failure. */
  failed(err: unknown): void {
    this.settle('error', err);
  }

  failedUnobserved(): void {
    this.settle('unobserved');
  }

  /** The stream ended, its consumer stopped it, or a watched value was never used. */
  streamEnded(): void {
    this.settle('result', undefined);
  }

  /** An error the framework will swallow or re-wrap (recordToolError): it marks the span now. */
  noted(err: unknown): void {
    if (this.state === 'ended' || haltOf(this.options.halts?.thrown, err) !== undefined) return;
    this.markError(err, false);
  }

  /** Runs iterator steps in the call's context, so spans started while producing chunks nest under it. */
  runStep<R>(step: () => R): R {
    return context.with(this.context, step);
  }

  /** Argument values to hide from error text: none when arguments are captured anyway. */
  hiddenArgumentTexts(): readonly string[] {
    this.hiddenTexts ??=
      this.config.captureArguments || this.info.args === undefined ? [] : argumentTexts(this.info.args);
    return this.hiddenTexts;
  }

  /**
   * Decides how the call ended (halted, failed or returned), records it, and ends the call.
   * `value`: the result, or the error.
   */
  private settle(how: Settlement, value?: unknown): void {
    if (this.state === 'ended') return;
    const halt = this.haltOf(how, value);
    if (halt !== undefined) return this.halted(halt, how, value);
    switch (how) {
      case 'error':
        return this.end({ error: value, classification: this.failedWith(value) });
      case 'unobserved':
        this.mark(
          makeClassification('internal', ERROR_TYPE_VALUE_OTHER, FALLBACK_EVIDENCE.evidence),
          'the returned promise rejected and nothing handled it',
          true,
        );
        return this.end({ classification: this.marks.classification });
      case 'result':
        this.markResult(value);
        return this.end({ result: value, classification: this.marks.classification });
    }
  }

  private haltOf(how: Settlement, value: unknown): ToolCallHalt | undefined {
    const halts = this.options.halts;
    if (how === 'unobserved') return undefined;
    return haltOf(how === 'error' ? halts?.thrown : halts?.returned, value);
  }

  /**
   * Ends a call the framework stopped, saying why and nothing of what it carried (the question put
   * to a human) unless results are captured: no status, no `error.type`. A nested call leaves
   * that to its outer call, which sees the same value.
   */
  private halted(halt: ToolCallHalt, how: Settlement, value: unknown): void {
    const result = how === 'result' ? value : undefined;
    if (this.role !== 'nested' && this.span.isRecording()) {
      try {
        markSpanHalted(this.span, halt);
        if (this.config.captureResults && result !== undefined)
          this.span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, redactForCapture(result));
      } catch (err) {
        logger.error('could not record the stopped tool call', err);
      }
    }
    this.end(how === 'error' ? { error: value, halt } : { result, halt });
  }

  /** A thrown error fails the call: marked, recorded, and told to the protocol. */
  private failedWith(err: unknown): ToolErrorClassification | undefined {
    const classification = this.markError(err, true);
    const onError = this.options.protocol?.onError;
    if (onError && this.span.isRecording()) {
      try {
        onError(this.span, err);
      } catch (e) {
        logger.error('could not record the protocol error', e);
      }
    }
    return classification;
  }

  /** A returned value: an error result marks the span; a result is recorded when results are captured. */
  private markResult(result: unknown): void {
    try {
      const classification = (this.options.classifyResult ?? classifyToolResult)(result);
      // On a span of ours, an error result's `error.type` is the protocol's (MCP: `tool_error`).
      if (classification) {
        const fixedType = this.role === 'owner' ? this.options.protocol?.errorResultType : undefined;
        this.mark(classification, undefined, true, fixedType);
      }
      // The conventions record the result of a successful call only.
      else if (this.config.captureResults && result !== undefined) {
        this.span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, redactForCapture(result));
      }
    } catch (err) {
      logger.error('could not classify the tool result', err);
    }
  }

  /**
   * Classifies and marks an error, thrown (it fails the call) or noted (it is about to be
   * swallowed: it marks the span whichever call noted it); the owner records it as the span's one
   * exception.
   */
  private markError(err: unknown, failsCall: boolean): ToolErrorClassification | undefined {
    try {
      const hidden = this.hiddenArgumentTexts();
      // The framework records this error on its own span too: the processor hides them there.
      if (this.role !== 'owner') hideArgumentsOn(this.span, hidden);
      const message = messageOf(err);
      // One exception event, on a span of ours (a nested call records it when the outer did not),
      // or on a framework's span the framework records none on.
      const recordsException =
        (this.role !== 'framework' || this.options.frameworkRecordsNoException === true) &&
        !this.marks.exceptionRecorded;
      // Redacted once, for both the status and the exception event.
      const redacted =
        message !== undefined && (hidden.length > 0 || recordsException)
          ? redactText(message, MAX_EXCEPTION_TEXT_LENGTH, hidden)
          : undefined;
      const classification = readAbortAgainst(classifyToolError(err), this.options.callerSignal);
      this.mark(classification, hidden.length > 0 ? redacted : message, failsCall);
      if (recordsException) {
        this.marks.exceptionRecorded = true;
        this.span.recordException(redactedException(err, hidden, redacted));
      }
    } catch (e) {
      logger.error(
        failsCall ? 'could not record the tool error' : 'could not record the noted tool error',
        e,
      );
    }
    return this.marks.classification;
  }

  /**
   * Writes the classification unless the span already holds one from stronger or equal evidence.
   * A nested call's failure waits until the outermost call fails too (see SpanMarks).
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
    if (failsCall && this.role === 'nested') return marks.holdNested(classification, message);
    let changed = marks.keep(classification, message);
    if (failsCall) changed = marks.keepNested() || changed;
    if (changed || fixedErrorType !== undefined)
      markSpanFailed(this.span, marks.classification!, marks.message, fixedErrorType);
  }

  /** The call's last step: the attributes hook, then the span's end if the call started it. */
  private end(outcome: ToolCallOutcome): void {
    if (this.state === 'ended') return;
    this.state = 'ended';
    if (this.role === 'nested') return;
    // The outermost call ended without failing: what failed inside it was recovered from.
    this.marks.dropNested();
    this.attempt?.beforeEnd(this.span, outcome);
    if (this.config.attributesHook && this.span.isRecording()) {
      try {
        this.config.attributesHook(this.span, this.info, outcome);
      } catch (err) {
        logger.error('attributesHook threw', err);
      }
    }
    if (this.role === 'owner') {
      try {
        this.span.end();
      } catch (err) {
        logger.error('could not end the tool span', err);
      }
    }
    // After the end, so that a span of ours is remembered with the error.type it ended with.
    this.attempt?.afterEnd(this.span, outcome);
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return isObjectLike(value) && typeof (value as { then?: unknown }).then === 'function';
}

function messageOf(err: unknown): string | undefined {
  return typeof err === 'string' ? err : readString(err, 'message');
}
