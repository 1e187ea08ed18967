import { ClassMethodWatch } from './class-method-watch';
import type { ResultObserver } from './result-observer';

/**
 * Watching a lazy thenable without starting it. A request or query builder (superagent, Knex,
 * Mongoose, drizzle) does its work when `then` is called, so the package must not call it: the
 * call is watched through the first `then` its caller makes, when that `then` comes from its class
 * (see class-method-watch.ts).
 */
const lazyThenables = new ClassMethodWatch('then', (original, take) => {
  return {
    then(this: object, ...args: unknown[]): unknown {
      const observer = take(this);
      if (observer === undefined) return Reflect.apply(original, this, args);
      return Reflect.apply(original, this, [
        watchFulfilled(observer, args[0]),
        watchRejected(observer, args[1]),
        ...args.slice(2),
      ]);
    },
  }.then;
});

/** Watches `thenable` from its caller's first `then`; false when it cannot be watched. */
export function watchLazyThenable(thenable: object, observer: ResultObserver): boolean {
  return lazyThenables.watch(thenable, observer);
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
