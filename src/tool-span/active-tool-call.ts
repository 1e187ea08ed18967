import { createContextKey, type Context } from '@opentelemetry/api';

/**
 * The tool call running in a context, as telemetry outside the instrumentation sees it: the
 * redacting processor hides its argument values from the HTTP spans started inside it.
 */
export interface ActiveToolCall {
  /** Argument values that error text must not repeat (none when arguments are captured). */
  hiddenArgumentTexts(): readonly string[];
}

export const ACTIVE_TOOL_CALL_KEY = createContextKey('otel-tool-errors.toolCall');

/**
 * The argument values of the tool call running in `ctx` that telemetry must not repeat (none when
 * arguments are captured), or `undefined` outside a tool call.
 */
export function argumentTextsToHide(ctx: Context): readonly string[] | undefined {
  const call = ctx.getValue(ACTIVE_TOOL_CALL_KEY) as ActiveToolCall | undefined;
  return call?.hiddenArgumentTexts();
}
