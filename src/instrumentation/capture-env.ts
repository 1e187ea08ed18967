/**
 * The GenAI conventions' content-capture switch (`true`/`false`). Kept apart from `semconv.ts`,
 * which loads `@opentelemetry/semantic-conventions`, because the register reads it before it
 * decides whether to load anything.
 */
export const ENV_GENAI_CAPTURE_MESSAGE_CONTENT = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';
