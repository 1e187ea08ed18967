import { SpanStatusCode, type Span } from '@opentelemetry/api';
import type { ToolErrorClassification } from './classify/classification';
import { scrubMessage } from './redact';
import {
  ATTR_ERROR_TYPE,
  ATTR_TOOL_ERROR_EXECUTED,
  ATTR_TOOL_ERROR_KIND,
  ATTR_TOOL_ERROR_RETRYABLE,
} from './semconv';

/**
 * Writes one classification onto a span: the same four attributes and status, whichever path
 * (processor or wrapper) found the failure.
 */
export function markSpanFailed(
  span: Pick<Span, 'setAttribute' | 'setStatus'>,
  classification: ToolErrorClassification,
  message: string | undefined,
): void {
  span.setAttribute(ATTR_ERROR_TYPE, classification.errorType);
  span.setAttribute(ATTR_TOOL_ERROR_KIND, classification.kind);
  span.setAttribute(ATTR_TOOL_ERROR_RETRYABLE, classification.retryable);
  span.setAttribute(ATTR_TOOL_ERROR_EXECUTED, classification.executed);
  span.setStatus({
    code: SpanStatusCode.ERROR,
    message: scrubMessage(message || `${classification.kind}: ${classification.errorType}`),
  });
}
