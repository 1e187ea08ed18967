/** What a watched result reports to its tool call (see ToolCall). None of its methods throws. */
export interface ResultObserver {
  /** A promise resolved with `value` (it may be a stream to watch in turn). */
  resolved(value: unknown): void;
  /** A rejection, or an error in a stream. */
  failed(err: unknown): void;
  /** A promise rejected and nothing handled it: the reason was reported to the process, not to us. */
  failedUnobserved(): void;
  /** The stream ended or its consumer stopped it. */
  streamEnded(): void;
  /** Runs a step of the stream in the call's context. */
  runStep<R>(step: () => R): R;
}
