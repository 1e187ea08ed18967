import type { AnyFunction } from '../adapter';

/** Whether an outer wrapper is calling down the chain of one wrapped function, right now. */
interface OuterCall {
  running: boolean;
}

/** One per wrapped function, shared by every copy of this package in the process. */
const OUTER_CALLS = Symbol.for('otel-tool-errors.outerCalls');

function outerCallOf(name: string): OuterCall {
  const holder = globalThis as { [OUTER_CALLS]?: Map<string, OuterCall> };
  const calls = (holder[OUTER_CALLS] ??= new Map());
  let call = calls.get(name);
  if (call === undefined) calls.set(name, (call = { running: false }));
  return call;
}

/**
 * `wrap`, for a function that several instances wrap (two `ToolInstrumentation`s, or two copies of
 * this package): the outer wrapper owns the call and the inner ones leave it, so a call is traced
 * once, by one instance. `name` names the function. The inner wrappers are what the outer one's
 * original is, so they are entered synchronously from it: a flag set around that call, not a
 * context value, tells them, and costs the tool call no context switch. A call made later (by a
 * tool, say) is a call of its own. A disabled instance's wrapper calls straight through, leaving
 * the call to the next one: `ctx.wrap` sees to that; a wrapper put on otherwise (a handler wrapped
 * as it is registered, which outlives a `disable()`) passes its instance's `isEnabled`.
 */
export function outermost(
  name: string,
  wrap: (original: AnyFunction) => AnyFunction,
  isEnabled: () => boolean = () => true,
): (original: AnyFunction) => AnyFunction {
  const outer = outerCallOf(name);
  return (original) => {
    const marked = function (this: unknown, ...args: unknown[]) {
      const before = outer.running;
      outer.running = true;
      try {
        return Reflect.apply(original, this, args);
      } finally {
        outer.running = before;
      }
    };
    const wrapped = wrap(marked);
    return function (this: unknown, ...args: unknown[]) {
      return Reflect.apply(outer.running || !isEnabled() ? original : wrapped, this, args);
    };
  };
}
