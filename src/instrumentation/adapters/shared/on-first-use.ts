/**
 * A value built when first asked for, then kept: for the classifications adapters compare against,
 * which built at load ran the classifier in every start, whether or not a tool of theirs ever fails.
 */
export function onFirstUse<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
