/**
 * The GenAI conventions' content-capture switch. Kept apart from `semconv.ts`, which loads
 * `@opentelemetry/semantic-conventions`, because the register reads it before it decides whether
 * to load anything.
 */
export const ENV_GENAI_CAPTURE_MESSAGE_CONTENT = 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT';

/**
 * The values OpenTelemetry's GenAI instrumentations accept, and whether each turns this package's
 * capture on. It records content on spans only (never in events), so `EVENT_ONLY` leaves it off.
 */
const CAPTURE_VALUES: Readonly<Record<string, boolean>> = {
  true: true,
  span_only: true,
  span_and_event: true,
  false: false,
  event_only: false,
  no_content: false,
};

/** Whether the GenAI switch turns capture on; `undefined` when unset or empty, `'invalid'` otherwise. */
export function genAiCaptureFrom(value: string | undefined): boolean | undefined | 'invalid' {
  const key = value?.trim().toLowerCase() ?? '';
  if (key === '') return undefined;
  return CAPTURE_VALUES[key] ?? 'invalid';
}

export const GENAI_CAPTURE_VALUES_TEXT = 'true, false, SPAN_ONLY, EVENT_ONLY, SPAN_AND_EVENT or NO_CONTENT';
