import { SpanStatusCode, type Span } from '@opentelemetry/api';
import { hideValues, scrubMessage } from '../redact/text';
import { ATTR_TOOL_ERROR_FRAMEWORK_TYPE } from '../semconv';
import { spanHalt } from '../tool-span/halted-call';
import { isMarkedFailure, markedFailureMessage, markSpanFailed } from '../tool-span/marked-failure';
import type { ToolSpanFamily } from '../tool-span/recognition';
import type { ReadableSpanLike } from '../tool-span/span-shape';
import type { HttpFailure } from './http-child-evidence';
import { httpChildOverMark, readToolSpanFailure } from './span-evidence';

/**
 * Marks an ending tool span from what it carries, for the processor (on the span) and the exporter
 * (on a copy) alike; true when it wrote anything. A span the wrapper marked keeps its mark unless a
 * failed HTTP call under it is stronger evidence; then only a status message set since the mark
 * is scrubbed again. `hidden`: the tool's argument values, kept out of the status message. A span
 * the framework stopped for someone else's decision (`tool.call.outcome`) is never marked.
 */
export function markToolSpan(
  writer: Pick<Span, 'setAttribute' | 'setStatus'>,
  span: ReadableSpanLike,
  family: ToolSpanFamily,
  httpChild: HttpFailure | undefined,
  hidden: readonly string[],
): boolean {
  if (spanHalt(span) !== undefined) return false;
  const marked = isMarkedFailure(span, family);
  const failure = marked
    ? httpChildOverMark(span, family, httpChild)
    : readToolSpanFailure(span, family, httpChild);
  if (failure !== undefined) {
    const message = failure.message === undefined ? undefined : hideValues(failure.message, hidden);
    markSpanFailed(writer, failure.classification, message, failure.fixedErrorType);
    if (failure.frameworkErrorType !== undefined) {
      writer.setAttribute(ATTR_TOOL_ERROR_FRAMEWORK_TYPE, failure.frameworkErrorType);
    }
    return true;
  }
  if (!marked) return false;
  writer.setStatus({
    code: SpanStatusCode.ERROR,
    message: scrubMessage(hideValues(markedFailureMessage(span), hidden)),
  });
  return true;
}
