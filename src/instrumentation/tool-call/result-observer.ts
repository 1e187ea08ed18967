/** The tool call a watched result reports to. None of its methods throws. */
export interface ResultObserver {
  /** The value a promise resolved with (it may be a stream to watch in turn). */
  resolved(value: unknown): void;
  /** A throw, a rejection, or an error in a stream. */
  fail(err: unknown): void;
  /** A promise rejected and nothing handled it: the reason was reported to the process, not to us. */
  failUnobserved(): void;
  /** The stream ended or its consumer stopped it. */
  streamEnded(): void;
  /** Runs a step of the stream in the call's context. */
  runStep<R>(step: () => R): R;
}
