import { inspect, types } from 'node:util';
import { logger } from '../../logger';
import type { ResultObserver } from './result-observer';

/**
 * Watching a returned promise without changing it: observed once its caller observes it.
 *
 * Any reaction (`then`, `await`) marks a promise handled, so reacting as soon as the tool returns
 * would hide an `unhandledRejection` the app would otherwise get (and, with no listener, the crash
 * Node intends). V8's promise hooks tell us when someone reacts to the promise: its caller's
 * `then`/`await`/`Promise.all` creates a promise whose parent is the watched one. We react then,
 * when the promise is handled anyway. The hooks are on only while a returned promise is waiting for
 * its caller, which in the common `await tool()` is until the caller's `await`, in the same tick.
 * A promise that settles with nobody watching it is looked at once the tick's rejections are
 * processed: a fulfilled one is read (reading cannot change anything), a rejected one is left to
 * the process and its span ends failed without the reason. The settle hook is turned on only for a
 * promise still pending at that look (a call whose caller has not reacted yet): each hook switched
 * on is paid by every call (Node switches its own promise tracking with it; BENCHMARKS.md, case 3).
 */

/** A promise returned through nested calls has one observer per call. */
const waiting = new WeakMap<Promise<unknown>, ResultObserver[]>();
/** Promises waiting for their caller that may have settled: looked at by `sweep`. */
let toSweep: Promise<unknown>[] = [];
/**
 * How many promises are waiting. One that never settles and is dropped by its caller keeps the
 * hooks on (V8 then runs them for every promise the app makes).
 */
let waitingCount = 0;
type PromiseHooks = typeof import('node:v8').promiseHooks;
type StopHook = ReturnType<PromiseHooks['onInit']>;
/** node:v8, loaded when a tool first returns a promise rather than in every start (about 1.5 ms). */
let v8PromiseHooks: PromiseHooks | undefined;
const promiseHooks = () => (v8PromiseHooks ??= process.getBuiltinModule('node:v8').promiseHooks);
let stopInitHook: StopHook | undefined;
let stopSettledHook: StopHook | undefined;
let sweepScheduled = false;

/** Native promises made by the intrinsic constructor: their `then` is the intrinsic one. */
export function isPlainPromise(value: unknown): value is Promise<unknown> {
  return types.isPromise(value) && Object.getPrototypeOf(value) === Promise.prototype;
}

/** Watches `promise` from the moment its caller reacts to it; see above. */
export function observeWhenCallerDoes(promise: Promise<unknown>, observer: ResultObserver): void {
  const observers = waiting.get(promise);
  if (observers !== undefined) {
    observers.push(observer);
    return;
  }
  waiting.set(promise, [observer]);
  waitingCount++;
  toSweep.push(promise);
  stopInitHook ??= promiseHooks().onInit(onPromiseMade);
  scheduleSweep();
}

/** Reacts to `promise` now (it is handled anyway, or it is not a plain promise). */
export function observeNow(promise: PromiseLike<unknown>, observer: ResultObserver): void {
  promise.then(
    (value) => observer.resolved(value),
    (err: unknown) => observer.failed(err),
  );
}

function onPromiseMade(_promise: Promise<unknown>, parent: Promise<unknown> | undefined): void {
  if (parent === undefined) return;
  const observers = waiting.get(parent);
  if (observers === undefined) return;
  stopWaiting(parent);
  try {
    for (const observer of observers) observeNow(parent, observer);
  } catch (err) {
    logger.error('could not watch the tool result', err);
  }
}

function onPromiseSettled(promise: Promise<unknown>): void {
  if (!waiting.has(promise)) return;
  toSweep.push(promise);
  scheduleSweep();
}

function stopWaiting(promise: Promise<unknown>): void {
  waiting.delete(promise);
  waitingCount--;
  // Usually the caller reacts at once (`await tool()`), to the promise pushed last: without this,
  // a loop of calls that never yields to the event loop kept every result alive until it did.
  if (toSweep[toSweep.length - 1] === promise) toSweep.pop();
  // Off as soon as nothing waits: while they are on, every promise the app makes pays for them.
  if (waitingCount <= 0) stopAllHooks();
}

function stopAllHooks(): void {
  waitingCount = 0;
  stopInitHook?.();
  stopInitHook = undefined;
  stopSettledHook?.();
  stopSettledHook = undefined;
}

function scheduleSweep(): void {
  if (sweepScheduled) return;
  sweepScheduled = true;
  // After this tick's microtasks and Node's pass over unhandled rejections.
  setImmediate(sweep);
}

function sweep(): void {
  sweepScheduled = false;
  const promises = toSweep;
  toSweep = [];
  for (const promise of promises) {
    const observers = waiting.get(promise);
    if (observers === undefined) continue;
    const state = promiseState(promise);
    if (state === 'pending') {
      stopSettledHook ??= promiseHooks().onSettled(onPromiseSettled); // brings it back
      continue;
    }
    stopWaiting(promise);
    for (const observer of observers) {
      if (state === 'fulfilled') observeNow(promise, observer);
      else observer.failedUnobserved();
    }
  }
  if (waitingCount <= 0) stopAllHooks();
}

/**
 * A promise's state without reacting to it. `util.inspect` reads it from V8; with depth 0 and no
 * custom inspection it formats the value as `[Object]`-like placeholders, running no user code.
 */
function promiseState(promise: Promise<unknown>): 'pending' | 'fulfilled' | 'rejected' {
  const text = inspect(promise, { depth: 0, customInspect: false, getters: false, showProxy: false });
  const body = text.slice(text.indexOf('{') + 1).trimStart();
  if (body.startsWith('<pending>')) return 'pending';
  return body.startsWith('<rejected>') ? 'rejected' : 'fulfilled';
}

/**
 * Promise subclasses, observed at once through the intrinsic `then` (never an override): a
 * subclass may start work or add reactions in its own `then`. Any other thenable is watched
 * through its caller (thenable-watch.ts).
 */
export function promiseSubclass(value: unknown): PromiseLike<unknown> | undefined {
  return types.isPromise(value) ? intrinsicThen(value) : undefined;
}

/** A view of a native promise (or subclass) whose `then` is the intrinsic one. */
function intrinsicThen(promise: Promise<unknown>): PromiseLike<unknown> {
  return {
    then: (onFulfilled, onRejected) =>
      Reflect.apply(Promise.prototype.then, promise, [onFulfilled, onRejected]),
  } as PromiseLike<unknown>;
}
