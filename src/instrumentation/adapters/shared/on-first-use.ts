/**
 * A value built when first asked for, then kept. For the fixed classifications adapters hand out:
 * built at load, they ran the classifier in every start, whether or not a tool ever failed.
 */
export function onFirstUse<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
