import { className, read } from '../../classify/safe';
import { ClassMethodWatch, type MethodWrapper } from './class-method-watch';
import { observeNow } from './promise-watch';
import type { ResultObserver } from './result-observer';

/**
 * Watching a thenable that is not a native promise without changing what happens to it: through the
 * first method its caller calls (see class-method-watch.ts), never before.
 * - A lazy thenable (a request or query builder: superagent, Knex, Mongoose, drizzle) does its work
 *   when `then` is called, so only the caller may call it: its outcome is read through the
 *   callbacks the caller passes.
 * - got's `PCancelable` and Bluebird have started their work, but reacting to them before the
 *   caller does would mark a rejection nobody handles as handled: they are observed when the
 *   caller first reacts, so an unhandled rejection stays the app's.
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

/** Observes the promise when its caller reacts to it through the wrapped method. */
const reactWithCaller: MethodWrapper = (original, take, key) => {
  return {
    [key](this: object, ...args: unknown[]): unknown {
      const observer = take(this);
      // The caller reacts now, so ours marks nothing handled that would not be.
      if (observer !== undefined) observeNow(this as PromiseLike<unknown>, observer);
      return Reflect.apply(original, this, args);
    },
  }[key as string]!;
};

const cancelables = new ClassMethodWatch(['then', 'catch', 'finally'], reactWithCaller);

/**
 * Bluebird tracks unhandled rejections itself (a bit on the promise; reported through
 * `process.emit('unhandledRejection')`, or printed), and any reaction clears it. Every way a
 * caller reacts ends in one of two of its methods: `_addCallbacks` for a pending promise (`then`,
 * `catch`, `finally`, `reflect`, `Bluebird.all`, adoption by another promise) and
 * `_unsetRejectionIsUnhandled` for a rejected one (Bluebird 3, unchanged since 2019), called on
 * the promise it follows if it was resolved with another (`_target()`), which is the one watched. A
 * fulfilled one is observed at once: reacting to it changes nothing.
 */
const bluebirds = new ClassMethodWatch(
  ['_addCallbacks', '_unsetRejectionIsUnhandled'],
  reactWithCaller,
  (promise, observer) => {
    const inspected = promise as BluebirdInspection;
    if (inspected.isFulfilled()) observeNow(inspected, observer);
    // Bluebird reports the reason to the process, as a native promise's goes to Node.
    else if (inspected.isRejected()) observer.failedUnobserved();
    else observer.streamEnded();
  },
);

interface BluebirdInspection extends PromiseLike<unknown> {
  isFulfilled(): boolean;
  isRejected(): boolean;
  _target(): BluebirdInspection;
}

/** Watches a thenable that is not a native promise; false when it cannot be watched. */
export function watchThenable(thenable: object, observer: ResultObserver): boolean {
  if (isBluebird(thenable)) {
    const promise = thenable as BluebirdInspection;
    if (!promise.isFulfilled()) return bluebirds.watch(promise._target(), observer);
    observeNow(promise, observer);
    return true;
  }
  return (isPCancelable(thenable) ? cancelables : lazyThenables).watch(thenable, observer);
}

function isPCancelable(value: object): boolean {
  return className(value) === 'PCancelable' && typeof read(value, 'cancel') === 'function';
}

/** Bluebird's constructor is named Promise; its instances carry a numeric `_bitField`. */
function isBluebird(value: object): boolean {
  return (
    className(value) === 'Promise' &&
    typeof read(value, '_bitField') === 'number' &&
    typeof read(value, 'isFulfilled') === 'function' &&
    typeof read(value, 'isRejected') === 'function' &&
    typeof read(value, '_target') === 'function'
  );
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
    observer.failed(reason);
    if (typeof onRejected === 'function') return (onRejected as (r: unknown) => unknown)(reason);
    throw reason;
  };
}
