import { types } from 'node:util';
import { logger } from '../logger';
import type { AnyFunction } from './adapters/adapter';
import { withNameAndLength } from './name-and-length';

/**
 * What happens with two instances in one process (two `ToolInstrumentation`s, such as the
 * register's and an app's, or the CommonJS and ES module copies of this package), decided here:
 * - their wrappers stack on one function: each calls through while its instance is disabled, and
 *   unwrapping takes off only retired wrappers lying on top (`OwnWrappers`);
 * - a wrapper that must act once per call (it hands the framework something new, or traces a call
 *   the framework runs outside any tool call) is `outermost`: the outer enabled one owns the call;
 * - two enabled wrappers of one tool call make one span: the inner call finds the outer one's
 *   active tool call and enriches its span (tool-call/tool-call.ts, the `nested` role).
 */

/** A wrapper in a shimmer-style chain: `__original` is what it wrapped. */
interface ChainedWrapper extends AnyFunction {
  __original?: unknown;
  [RETIRED]?: boolean;
}

/**
 * Set on a wrapper its instance unwrapped: it calls through, and comes off once nothing but retired
 * wrappers lie above it. A registered symbol, so every copy of this package (its CJS and ESM builds
 * in one process) sees it.
 */
const RETIRED = Symbol.for('otel-tool-errors.retiredWrapper');
/** Bounds walks down a wrapper chain that something else may have made circular. */
const MAX_CHAIN_LENGTH = 64;

/**
 * One instance's wrappers. shimmer's unwrap restores whatever is under the top wrapper, so with two
 * instances (the register's and an app's, or a CJS and an ESM copy) disabling one would remove the
 * other. Instead each wrapper calls through while its instance is disabled, and unwrapping takes
 * off only retired wrappers lying on top: the original is back once every instance is disabled.
 * Two enabled wrappers still make one span: the inner one enriches the outer one's tool span.
 */
export class OwnWrappers {
  private readonly installed = new WeakMap<object, Map<PropertyKey, ChainedWrapper>>();

  constructor(private readonly isEnabled: () => boolean) {}

  wrap(target: object, name: PropertyKey, wrapper: (original: unknown) => unknown): void {
    try {
      const slot = target as Record<PropertyKey, unknown>;
      const own = this.installed.get(target)?.get(name);
      if (own && chainIncludes(slot[name], own)) {
        own[RETIRED] = false;
        return;
      }
      const original = slot[name];
      if (typeof original !== 'function') return;
      const active = wrapper(original) as AnyFunction;
      const isEnabled = this.isEnabled;
      const gate: ChainedWrapper = function (this: unknown, ...args: unknown[]) {
        return Reflect.apply(isEnabled() && !gate[RETIRED] ? active : original, this, args);
      };
      withNameAndLength(gate, original);
      // shimmer's fields, so `isWrapped` and other instrumentations read the chain as theirs.
      defineHidden(gate, '__original', original);
      defineHidden(gate, '__unwrap', () => {
        if (slot[name] === gate) install(target, name, original);
      });
      defineHidden(gate, '__wrapped', true);
      install(target, name, gate);
      let byName = this.installed.get(target);
      if (!byName) this.installed.set(target, (byName = new Map()));
      byName.set(name, gate);
    } catch (err) {
      logger.error(`could not wrap ${String(name)}`, err);
    }
  }

  unwrap(target: object, name: PropertyKey): void {
    try {
      const own = this.installed.get(target)?.get(name);
      if (!own) return;
      own[RETIRED] = true;
      const slot = target as Record<PropertyKey, unknown>;
      for (let i = 0; i < MAX_CHAIN_LENGTH; i++) {
        const top = slot[name] as ChainedWrapper | undefined;
        if (typeof top !== 'function' || top[RETIRED] !== true) break;
        install(target, name, top.__original);
      }
    } catch (err) {
      logger.error(`could not unwrap ${String(name)}`, err);
    }
  }
}

function chainIncludes(top: unknown, wrapper: ChainedWrapper): boolean {
  let fn = top as ChainedWrapper | undefined;
  for (
    let i = 0;
    i < MAX_CHAIN_LENGTH && typeof fn === 'function';
    i++, fn = fn.__original as ChainedWrapper
  ) {
    if (fn === wrapper) return true;
  }
  return false;
}

/** Sets `target[name]` as shimmer does; a module namespace from import-in-the-middle is a Proxy. */
function install(target: object, name: PropertyKey, value: unknown): void {
  if (types.isProxy(target)) {
    Object.defineProperty(target, name, { value });
    return;
  }
  const enumerable = Object.prototype.propertyIsEnumerable.call(target, name);
  Object.defineProperty(target, name, { configurable: true, enumerable, writable: true, value });
}

function defineHidden(target: object, name: PropertyKey, value: unknown): void {
  Object.defineProperty(target, name, { configurable: true, enumerable: false, writable: true, value });
}

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
