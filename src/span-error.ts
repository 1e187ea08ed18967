import { SpanStatusCode, type Span } from '@opentelemetry/api';
import type { ToolErrorClassification } from './classify/classification';
import { scrubMessage } from './redact';
import {
  ATTR_ERROR_TYPE,
  ATTR_TOOL_ERROR_DETAIL_TYPE,
  ATTR_TOOL_ERROR_EXECUTED,
  ATTR_TOOL_ERROR_KIND,
  ATTR_TOOL_ERROR_RETRYABLE,
} from './semconv';

/**
 * Writes one classification onto a span: the same four attributes and status, whichever path
 * (processor or wrapper) found the failure.
 *
 * `fixedErrorType` is for spans whose convention fixes `error.type` (an MCP `tools/call` that
 * returned `isError: true` is `tool_error`): the classification's own type then goes to
 * `tool.error_detail_type`, so a `503` stays searchable.
 */
export function markSpanFailed(
  span: Pick<Span, 'setAttribute' | 'setStatus'>,
  classification: ToolErrorClassification,
  message: string | undefined,
  fixedErrorType?: string,
): void {
  span.setAttribute(ATTR_ERROR_TYPE, fixedErrorType ?? classification.errorType);
  if (fixedErrorType !== undefined && classification.errorType !== fixedErrorType)
    span.setAttribute(ATTR_TOOL_ERROR_DETAIL_TYPE, classification.errorType);
  span.setAttribute(ATTR_TOOL_ERROR_KIND, classification.kind);
  span.setAttribute(ATTR_TOOL_ERROR_RETRYABLE, classification.retryable);
  span.setAttribute(ATTR_TOOL_ERROR_EXECUTED, classification.executed);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: scrubMessage(message || `${classification.kind}: ${classification.errorType}`),
  });
}
