import { context, createContextKey } from '@opentelemetry/api';
import type { AnyFunction } from '../adapter';

/** Set in the context while the outer wrapper calls down the chain; `running` until it returns. */
interface OuterCall {
  running: boolean;
}

/**
 * `wrap`, for a function that several instances wrap (two `ToolInstrumentation`s, or two copies of
 * this package: context keys are shared): the outer wrapper owns the call and the inner ones leave
 * it, so a call is traced once, by one instance. `name` names the function. `running` is cleared
 * once the wrapped function returns, so a call made later in that context (by a tool, say) is a
 * call of its own. A disabled instance's wrapper calls straight through, leaving the call to the
 * next one: `ctx.wrap` sees to that; a wrapper put on otherwise (a handler wrapped as it is
 * registered, which outlives a `disable()`) passes its instance's `isEnabled`.
 */
export function outermost(
  name: string,
  wrap: (original: AnyFunction) => AnyFunction,
  isEnabled: () => boolean = () => true,
): (original: AnyFunction) => AnyFunction {
  const key = createContextKey(`otel-tool-errors.outerCall.${name}`);
  return (original) => {
    const marked = function (this: unknown, ...args: unknown[]) {
      const call: OuterCall = { running: true };
      try {
        return context.with(context.active().setValue(key, call), () => Reflect.apply(original, this, args));
      } finally {
        call.running = false;
      }
    };
    const wrapped = wrap(marked);
    return function (this: unknown, ...args: unknown[]) {
      const outer = context.active().getValue(key) as OuterCall | undefined;
      return Reflect.apply(outer?.running === true || !isEnabled() ? original : wrapped, this, args);
    };
  };
}
