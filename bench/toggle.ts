/** A patched method and its original, to switch between them. */
export class Toggle {
  private readonly patched: unknown;

  constructor(
    private readonly target: Record<string, unknown>,
    private readonly key: string,
    private readonly original: unknown,
  ) {
    this.patched = target[key];
    if (this.patched === original) throw new Error(`${key} was not patched`);
  }

  set(on: boolean): void {
    this.target[this.key] = on ? this.patched : this.original;
  }

  /** For shimmer-wrapped methods, which keep their original as `__original`. */
  static shimmer(target: Record<string, unknown>, key: string): Toggle {
    const original = (target[key] as { __original?: unknown } | undefined)?.__original;
    if (typeof original !== 'function') throw new Error(`${key} is not shimmer-wrapped`);
    return new Toggle(target, key, original);
  }
}
