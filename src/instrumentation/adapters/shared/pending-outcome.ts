/**
 * A thenable settled by hand, synchronously: what `ctx.traceToolCall` watches (with
 * `eagerThenable`) when a framework reports a call's outcome through an event rather than a
 * return value, so the span is marked inside that event, not a microtask later (the AI SDK v7's
 * `onToolExecutionEnd`, before `@ai-sdk/otel` ends its span; a Claude Agent SDK `tool_result`).
 */
export class PendingOutcome implements PromiseLike<unknown> {
  private onResolved?: (value: unknown) => unknown;
  private onRejected?: (reason: unknown) => unknown;
  private settled?: { failed: boolean; value: unknown };

  then<A = unknown, B = never>(
    onResolved?: ((value: unknown) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): PromiseLike<A | B> {
    this.onResolved = onResolved ?? undefined;
    this.onRejected = onRejected ?? undefined;
    if (this.settled) this.deliver(this.settled);
    return this as unknown as PromiseLike<A | B>;
  }

  resolve(value: unknown): void {
    this.settle({ failed: false, value });
  }

  reject(reason: unknown): void {
    this.settle({ failed: true, value: reason });
  }

  private settle(settled: { failed: boolean; value: unknown }): void {
    if (this.settled) return;
    this.settled = settled;
    this.deliver(settled);
  }

  private deliver({ failed, value }: { failed: boolean; value: unknown }): void {
    const handler = failed ? this.onRejected : this.onResolved;
    this.onResolved = this.onRejected = undefined;
    handler?.(value);
  }
}
