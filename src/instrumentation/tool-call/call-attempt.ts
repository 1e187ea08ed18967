import { SpanKind, trace, type Attributes, type Context, type Link, type Span } from '@opentelemetry/api';
import { liveAttributesOf } from '../../tool-span/span-shape';
import { logger } from '../../logger';
import {
  ATTR_ERROR_TYPE,
  ATTR_TOOL_CALL_ATTEMPT,
  ATTR_TOOL_CALL_RECOVERED_ERROR_KIND,
  ATTR_TOOL_CALL_RECOVERED_ERROR_TYPE,
  ATTR_TOOL_ERROR_KIND,
} from '../../semconv';
import { keepRecoveredFailures } from '../../tool-span/recovered-failures';
import type { ToolCallInfo, ToolCallOutcome } from '../types';
import { toolCallAttempts, type FailedCall, type ToolCallAttempts } from './attempts';

/**
 * One tool call's place in its attempts (attempts.ts): looked up before its span starts, so that an
 * attempt starts with `tool.call.attempt` and its link to the failed call; told how the call ended,
 * so that a failure is remembered for the next attempt and a success recovers the failure before it.
 */
export class CallAttempt {
  private constructor(
    private readonly attempts: ToolCallAttempts,
    private readonly toolName: string,
    private readonly side: string,
    private readonly args: unknown,
    private digest: number | undefined,
    /** The failed call this one is an attempt of. */
    readonly previous: FailedCall | undefined,
    /** The framework's own number for this attempt (LangGraph's node retries), if it gives one. */
    private readonly frameworkNumber: number | undefined,
  ) {}

  /**
   * The attempt of a call starting in the trace of `parent`, or `undefined` for a call that cannot
   * be one: arguments unknown (the framework hands none over), or no trace around it (a root call's
   * trace holds no other call, so its failure is not remembered either). Never throws.
   */
  static lookUp(
    info: ToolCallInfo,
    kind: SpanKind,
    parent: Context | undefined,
    frameworkNumber?: number,
    attempts: ToolCallAttempts = toolCallAttempts,
  ): CallAttempt | undefined {
    try {
      if (info.args === undefined) return undefined;
      const side = kind === SpanKind.SERVER ? 'server' : 'call';
      const parentContext = parent && trace.getSpan(parent)?.spanContext();
      if (!parentContext || !trace.isSpanContextValid(parentContext)) return undefined;
      const traceId = parentContext.traceId;
      let digest: number | undefined;
      let previous: FailedCall | undefined;
      if (attempts.hasFailures(traceId)) {
        digest = attempts.digest(info.name, side, info.args);
        previous = attempts.previous(traceId, digest);
      }
      const number = isAttemptNumber(frameworkNumber) ? frameworkNumber : undefined;
      return new CallAttempt(attempts, info.name, side, info.args, digest, previous, number);
    } catch (err) {
      logger.error('could not look up the tool call attempt', err);
      return undefined;
    }
  }

  /**
   * 1 for a first call; for an attempt, the framework's number where it gives one. A call the
   * framework reruns after a failure of another call (a LangGraph node's other tools) is no attempt.
   */
  get number(): number {
    if (this.previous === undefined) return 1;
    return this.frameworkNumber ?? this.previous.attempt + 1;
  }

  /** The attributes an attempt starts with: none for a first call. */
  startAttributes(): Attributes | undefined {
    return this.number > 1 ? { [ATTR_TOOL_CALL_ATTEMPT]: this.number } : undefined;
  }

  /** The link an attempt starts with, to the failed call it follows. */
  link(): Link | undefined {
    const previous = this.previous;
    if (previous === undefined) return undefined;
    return { context: previous.spanContext, attributes: { [ATTR_TOOL_CALL_ATTEMPT]: previous.attempt } };
  }

  /**
   * A span that started before the call (a framework's own): the attempt's attribute and, where
   * the API has `addLink` (api >= 1.9 with an SDK that records it), its link.
   */
  enrichStarted(span: Span): void {
    try {
      const attributes = this.startAttributes();
      if (attributes) span.setAttributes(attributes);
      const link = this.link();
      const addLink = (span as Partial<Pick<Span, 'addLink'>>).addLink;
      if (link && typeof addLink === 'function') addLink.call(span, link);
    } catch (err) {
      logger.error('could not record the tool call attempt', err);
    }
  }

  /** Before the span ends: a successful attempt says which failure it recovered. */
  beforeEnd(span: Span, outcome: ToolCallOutcome): void {
    const previous = this.previous;
    if (previous === undefined || outcome.halt !== undefined || outcome.classification !== undefined) return;
    try {
      const attributes: Attributes = {};
      if (previous.errorType !== undefined)
        attributes[ATTR_TOOL_CALL_RECOVERED_ERROR_TYPE] = previous.errorType;
      if (previous.errorKind !== undefined)
        attributes[ATTR_TOOL_CALL_RECOVERED_ERROR_KIND] = previous.errorKind;
      if (span.isRecording()) span.setAttributes(attributes);
      keepRecoveredFailures(span.spanContext(), previous.chain);
      this.attempts.recovered(span.spanContext().traceId, this.digest!);
    } catch (err) {
      logger.error('could not record the recovered tool call', err);
    }
  }

  /**
   * After the span ended (when the call started it; else at the call's end): a failure is
   * remembered, with the `error.type` and kind the span ended with where it can be read.
   */
  afterEnd(span: Span, outcome: ToolCallOutcome): void {
    if (outcome.halt !== undefined || outcome.classification === undefined) return;
    try {
      const spanContext = span.spanContext();
      if (!trace.isSpanContextValid(spanContext)) return;
      this.digest ??= this.attempts.digest(this.toolName, this.side, this.args);
      const written = liveAttributesOf(span);
      const errorType = written[ATTR_ERROR_TYPE];
      const errorKind = written[ATTR_TOOL_ERROR_KIND];
      this.attempts.failed(
        spanContext.traceId,
        this.digest,
        {
          spanContext,
          attempt: this.number,
          errorType: typeof errorType === 'string' ? errorType : outcome.classification.errorType,
          errorKind: typeof errorKind === 'string' ? errorKind : outcome.classification.kind,
        },
        this.previous,
      );
    } catch (err) {
      logger.error('could not record the failed tool call', err);
    }
  }
}

function isAttemptNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

const ATTEMPT_CLAIMED = Symbol.for('otel-tool-errors.attemptClaimed');

/**
 * Whether this call is the first to track attempts on `span`: calls that enrich one framework span
 * (an AI SDK tool calling an MCP tool of the same name) count it once.
 */
export function claimAttempt(span: Span): boolean {
  try {
    const store = span.spanContext() as { [ATTEMPT_CLAIMED]?: true };
    if (store[ATTEMPT_CLAIMED]) return false;
    store[ATTEMPT_CLAIMED] = true;
    return true;
  } catch {
    // A span context that cannot be written (frozen): no attempts on that span, the call goes on.
    return false;
  }
}
