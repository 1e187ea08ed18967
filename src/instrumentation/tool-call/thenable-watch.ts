import { className, read } from '../../classify/safe';
import { ClassMethodWatch } from './class-method-watch';
import { observeNow } from './promise-watch';
import type { ResultObserver } from './result-observer';

/**
 * Watching a thenable that is not a native promise without changing what happens to it: through the
 * first method its caller calls (see class-method-watch.ts), never before.
 * - A lazy thenable (a request or query builder: superagent, Knex, Mongoose, drizzle) does its work
 *   when `then` is called, so only the caller may call it: its outcome is read through the
 *   callbacks the caller passes.
 * - got's `PCancelable` has started its work, but reacting to it before the caller does would mark
 *   a rejection nobody handles as handled: it is observed when the caller first calls `then`,
 *   `catch` or `finally`, so an unhandled rejection stays the app's.
 */
const lazyThenables = new ClassMethodWatch(['then'], (original, take) => {
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

const cancelables = new ClassMethodWatch(['then', 'catch', 'finally'], (original, take, key) => {
  return {
    [key](this: object, ...args: unknown[]): unknown {
      const observer = take(this);
      // The caller reacts now, so ours marks nothing handled that would not be.
      if (observer !== undefined) observeNow(this as PromiseLike<unknown>, observer);
      return Reflect.apply(original, this, args);
    },
  }[key as string]!;
});

/** Watches a thenable that is not a native promise; false when it cannot be watched. */
export function watchThenable(thenable: object, observer: ResultObserver): boolean {
  return (isPCancelable(thenable) ? cancelables : lazyThenables).watch(thenable, observer);
}

function isPCancelable(value: object): boolean {
  return className(value) === 'PCancelable' && typeof read(value, 'cancel') === 'function';
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
