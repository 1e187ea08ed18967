/**
 * What the wrapper and the metrics processor tell each other about attempts (`tool.call.attempt`),
 * kept on spans' `SpanContext` objects under registered symbols, as the failure marks are
 * (marked-failure.ts), so that every copy of this package in the process reads what another wrote:
 * - the metrics processor writes on a failed tool span's context the attributes it counted it under
 *   in `tool.errors`;
 * - the wrapper writes on a successful attempt's context the contexts of the failed attempts it
 *   recovered;
 * - the metrics processor, when that attempt ends, counts each recovered failure it had counted in
 *   `tool.recovered_errors`, under the same attributes, so that `tool.errors` minus
 *   `tool.recovered_errors` never counts a failure it did not count.
 * Nothing here is exported with the span.
 */
const COUNTED = Symbol.for('otel-tool-errors.countedFailure');
const RECOVERED = Symbol.for('otel-tool-errors.recoveredFailures');

/** The attributes a failed call was counted under in `tool.errors`. */
export interface CountedFailure {
  readonly toolName: string;
  readonly errorType: string;
  readonly errorKind: string | undefined;
}

interface AttemptStore {
  [COUNTED]?: CountedFailure;
  [RECOVERED]?: readonly object[];
}

export function keepCountedFailure(spanContext: object, failure: CountedFailure): void {
  keep(() => ((spanContext as AttemptStore)[COUNTED] = failure));
}

/** What `tool.errors` counted a failed span under, once: a failure is recovered at most once. */
export function takeCountedFailure(spanContext: object): CountedFailure | undefined {
  const store = spanContext as AttemptStore;
  const counted = store[COUNTED];
  if (counted !== undefined) keep(() => delete store[COUNTED]);
  return counted;
}

/** On a successful attempt's span context: the span contexts of the failed attempts it recovered. */
export function keepRecoveredFailures(spanContext: object, failed: readonly object[]): void {
  keep(() => ((spanContext as AttemptStore)[RECOVERED] = failed));
}

/** A span context that cannot be written (frozen) keeps nothing: its failure is not recovered. */
function keep(write: () => unknown): void {
  try {
    write();
  } catch {
    // Nothing to keep it on.
  }
}

export function recoveredFailures(spanContext: object): readonly object[] | undefined {
  return (spanContext as AttemptStore)[RECOVERED];
}
