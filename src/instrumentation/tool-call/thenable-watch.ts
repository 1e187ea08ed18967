import type { ResultObserver } from './result-observer';

/**
 * Watching a lazy thenable without starting it. A request or query builder (superagent, Knex,
 * Mongoose, drizzle) does its work when `then` is called, so the package must not call it: the
 * call is watched through the first `then` its caller makes. When that `then` comes from a class's
 * prototype, the prototype's `then` is wrapped once, and the call kept in a WeakMap entry per
 * object: the object itself gets no property. A thenable with its own `then` (an object literal),
 * or whose prototype cannot take the wrapper, is not watched. One whose caller has not called
 * `then` by the next turn of the event loop ends its span then, without an outcome.
 */

const lazyCalls = new WeakMap<object, ResultObserver>();
/** Prototypes whose `then` is the wrapper below. */
const wrappedPrototypes = new WeakSet<object>();
/** Intrinsic prototypes never get the wrapper, whatever a library added to them. */
const INTRINSIC_PROTOTYPES = new Set<object | null>([Object.prototype, Function.prototype, null]);
const MAX_PROTOTYPE_DEPTH = 16;

/** Watches `thenable` from its caller's first `then`; false when it cannot be watched. */
export function watchLazyThenable(thenable: object, observer: ResultObserver): boolean {
  const prototype = prototypeWithThen(thenable);
  if (prototype === undefined) return false;
  if (!wrappedPrototypes.has(prototype) && !wrapThen(prototype)) return false;
  const previous = lazyCalls.get(thenable);
  lazyCalls.set(thenable, observer);
  // A later call returning the same thenable takes it over: the earlier call's span ends.
  previous?.streamEnded();
  setImmediate(endUnobserved, thenable, observer);
  return true;
}

function endUnobserved(thenable: object, observer: ResultObserver): void {
  if (lazyCalls.get(thenable) !== observer) return;
  lazyCalls.delete(thenable);
  observer.streamEnded();
}

/** The prototype in `thenable`'s chain that owns `then`, if `thenable` has no `then` of its own. */
function prototypeWithThen(thenable: object): object | undefined {
  if (Object.prototype.hasOwnProperty.call(thenable, 'then')) return undefined;
  let prototype = Object.getPrototypeOf(thenable) as object | null;
  for (let depth = 0; depth < MAX_PROTOTYPE_DEPTH; depth++) {
    if (INTRINSIC_PROTOTYPES.has(prototype)) return undefined;
    if (Object.prototype.hasOwnProperty.call(prototype, 'then')) return prototype!;
    prototype = Object.getPrototypeOf(prototype) as object | null;
  }
  return undefined;
}

/** Replaces `prototype.then` with one that watches the first `then` of a watched object. */
function wrapThen(prototype: object): boolean {
  const descriptor = Object.getOwnPropertyDescriptor(prototype, 'then');
  const original = descriptor?.value as unknown;
  if (typeof original !== 'function' || !descriptor!.writable || !descriptor!.configurable) return false;
  if (!Object.isExtensible(prototype)) return false;
  const wrapped = {
    then(this: object, ...args: unknown[]): unknown {
      const observer = lazyCalls.get(this);
      if (observer === undefined) return Reflect.apply(original, this, args);
      lazyCalls.delete(this);
      return Reflect.apply(original, this, [
        watchFulfilled(observer, args[0]),
        watchRejected(observer, args[1]),
        ...args.slice(2),
      ]);
    },
  }.then;
  Object.defineProperty(prototype, 'then', { ...descriptor, value: wrapped });
  wrappedPrototypes.add(prototype);
  return true;
}

/** The caller's callback, after the call's outcome is noted; a missing one passes the value on, as `then` would. */
function watchFulfilled(observer: ResultObserver, onFulfilled: unknown): (value: unknown) => unknown {
  return (value) => {
    observer.resolved(value);
    return typeof onFulfilled === 'function' ? (onFulfilled as (v: unknown) => unknown)(value) : value;
  };
}

function watchRejected(observer: ResultObserver, onRejected: unknown): (reason: unknown) => unknown {
  return (reason) => {
    observer.fail(reason);
    if (typeof onRejected === 'function') return (onRejected as (r: unknown) => unknown)(reason);
    throw reason;
  };
}
