/**
 * A tool's argument values, kept per framework span while argument capture is off, so that the
 * processor can hide them from the status and exception text the framework itself writes on that
 * span (`ToolInstrumentation` learns them; the framework records its own error). Filled only on a
 * failure; a WeakMap, so a span that is never ended is not kept alive.
 */
const hiddenBySpan = new WeakMap<object, readonly string[]>();

export function hideArgumentsOn(span: object, texts: readonly string[]): void {
  if (texts.length > 0) hiddenBySpan.set(span, texts);
}

export function argumentsHiddenOn(span: object): readonly string[] {
  return hiddenBySpan.get(span) ?? [];
}
