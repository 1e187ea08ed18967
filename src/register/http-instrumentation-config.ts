import type { HttpInstrumentationConfig } from '@opentelemetry/instrumentation-http';
import type { UndiciInstrumentationConfig } from '@opentelemetry/instrumentation-undici';
import { RETRY_AFTER_HEADERS } from '../semconv';

/**
 * The HTTP client instrumentations record the `retry-after` and `retry-after-ms` response headers
 * on their spans, so that the processor can tell a 429 with Retry-After (`rate_limit`) from one
 * without (`quota`) when the tool threw something that says neither.
 */
export const HTTP_INSTRUMENTATION_CONFIG: HttpInstrumentationConfig = {
  headersToSpanAttributes: { client: { responseHeaders: [...RETRY_AFTER_HEADERS] } },
};

export const UNDICI_INSTRUMENTATION_CONFIG: UndiciInstrumentationConfig = {
  headersToSpanAttributes: { responseHeaders: [...RETRY_AFTER_HEADERS] },
};
