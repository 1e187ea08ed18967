/**
 * Gives `wrapper` the `name` and `length` of `fn`, with the attributes a function's own have
 * (read-only, not enumerable, configurable), so that frameworks reading them see the wrapped one.
 */
export function withNameAndLength<W extends object>(wrapper: W, fn: { name: string; length: number }): W {
  Object.defineProperty(wrapper, 'name', { value: fn.name, configurable: true });
  Object.defineProperty(wrapper, 'length', { value: fn.length, configurable: true });
  return wrapper;
}
