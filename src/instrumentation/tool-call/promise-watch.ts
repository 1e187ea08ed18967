import { inspect, types } from 'node:util';
import { promiseHooks } from 'node:v8';
import { diag } from '@opentelemetry/api';
import { isObjectLike, read } from '../../classify/safe';

/**
 * Watching what a tool returns without changing it: a promise is observed only once its caller
 * observes it, a returned object gets no own property, and nothing is started that the caller did
 * not start. What a call learns goes to its `ResultObserver`.
 */

const logger = diag.createComponentLogger({ namespace: 'otel-tool-errors' });

/** The tool call a watched result reports to. None of its methods throws. */
export interface ResultObserver {
  /** The value a promise resolved with (it may be a stream to watch in turn). */
  resolved(value: unknown): void;
  /** A throw, a rejection, or an error in a stream. */
  fail(err: unknown): void;
  /** A promise rejected and nothing handled it: the reason was reported to the process, not to us. */
  failUnobserved(): void;
  /** The stream ended or its consumer stopped it. */
  streamEnded(): void;
  /** Runs a step of the stream in the call's context. */
  runStep<R>(step: () => R): R;
}

// ---------------------------------------------------------------------------------------------
// Promises: observed when the caller observes them.
//
// Any reaction (`then`, `await`) marks a promise handled, so reacting as soon as the tool returns
// would hide an `unhandledRejection` the app would otherwise get (and, with no listener, the crash
// Node intends). V8's promise hooks tell us when someone reacts to the promise: its caller's
// `then`/`await`/`Promise.all` creates a promise whose parent is the watched one. We react then,
// when the promise is handled anyway. The hooks are on only while a returned promise is waiting for
// its caller, which in the common `await tool()` is until the caller's `await`, in the same tick.
// A promise that settles with nobody watching it is looked at once the tick's rejections are
// processed: a fulfilled one is read (reading cannot change anything), a rejected one is left to
// the process and its span ends failed without the reason.
// ---------------------------------------------------------------------------------------------

/** A promise returned through nested calls has one observer per call. */
const waiting = new WeakMap<Promise<unknown>, ResultObserver[]>();
/** Promises waiting for their caller that may have settled: looked at by `sweep`. */
let toSweep: Promise<unknown>[] = [];
/**
 * How many promises are waiting. One that never settles and is dropped by its caller keeps the
 * hooks on (V8 then runs them for every promise, tens of nanoseconds each).
 */
let waitingCount = 0;
let stopHooks: (() => void) | undefined;
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
  if (stopHooks === undefined) startHooks();
  scheduleSweep();
}

/** Reacts to `promise` now (it is handled anyway, or it is not a plain promise). */
export function observeNow(promise: PromiseLike<unknown>, observer: ResultObserver): void {
  promise.then(
    (value) => observer.resolved(value),
    (err: unknown) => observer.fail(err),
  );
}

function startHooks(): void {
  const stopInit = promiseHooks.onInit(onPromiseMade);
  const stopSettled = promiseHooks.onSettled(onPromiseSettled);
  stopHooks = () => {
    stopInit();
    stopSettled();
  };
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
  // Off as soon as nothing waits: while they are on, every promise the app makes pays for them.
  if (waitingCount <= 0) stopAllHooks();
}

function stopAllHooks(): void {
  waitingCount = 0;
  if (stopHooks === undefined) return;
  stopHooks();
  stopHooks = undefined;
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
    if (state === 'pending') continue; // onPromiseSettled brings it back
    stopWaiting(promise);
    for (const observer of observers) {
      if (state === 'fulfilled') observeNow(promise, observer);
      else observer.failUnobserved();
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

// ---------------------------------------------------------------------------------------------
// Thenables that are not plain promises.
// ---------------------------------------------------------------------------------------------

/**
 * Thenables whose work has started when they are returned, so `then` only listens: Promise
 * subclasses (through the intrinsic `then`, never an override), got's `PCancelable` and Bluebird.
 * Any other thenable may be lazy (a query builder runs its query on each `then`) and is not watched.
 */
export function eagerThenable(value: unknown): PromiseLike<unknown> | undefined {
  if (types.isPromise(value)) return intrinsicThen(value);
  if (!isObjectLike(value) || typeof read(value, 'then') !== 'function') return undefined;
  const thenable = value as unknown as PromiseLike<unknown>;
  const name = read(read(value, 'constructor'), 'name');
  if (name === 'PCancelable' && typeof read(value, 'cancel') === 'function') return thenable;
  // Bluebird's constructor is named Promise; its instances carry a numeric `_bitField`.
  if (name === 'Promise' && typeof read(value, '_bitField') === 'number') return thenable;
  return undefined;
}

/** A view of a native promise (or subclass) whose `then` is the intrinsic one. */
function intrinsicThen(promise: Promise<unknown>): PromiseLike<unknown> {
  return {
    then: (onFulfilled, onRejected) =>
      Reflect.apply(Promise.prototype.then, promise, [onFulfilled, onRejected]),
  } as PromiseLike<unknown>;
}

// ---------------------------------------------------------------------------------------------
// Streams.
// ---------------------------------------------------------------------------------------------

/** Watches Node streams and native async generators; false when `value` is neither. */
export function watchStream(value: unknown, observer: ResultObserver): boolean {
  if (isNodeReadable(value)) {
    watchNodeReadable(value, observer);
    return true;
  }
  if (isAsyncGenerator(value)) return watchAsyncGenerator(value, observer);
  return false;
}

/**
 * A native async generator is watched through its generator function's own `prototype` object
 * (the [[Prototype]] of every generator that function makes), patched once, with the call kept in
 * a WeakMap entry per generator: the generator itself gets no property, and one returned by many
 * calls costs one WeakMap write a call. A later call that returns the same generator takes it over;
 * the earlier call's span ends then.
 */
const generatorCalls = new WeakMap<object, ResultObserver>();
const patchedPrototypes = new WeakSet<object>();
const ASYNC_GENERATOR_PROTOTYPE = Object.getPrototypeOf(async function* () {}.prototype) as object;
const GENERATOR_METHODS = ['next', 'return', 'throw'] as const;

function isAsyncGenerator(value: unknown): value is AsyncGenerator {
  return (
    types.isGeneratorObject(value) && Object.prototype.toString.call(value) === '[object AsyncGenerator]'
  );
}

function watchAsyncGenerator(generator: AsyncGenerator, observer: ResultObserver): boolean {
  const prototype = Object.getPrototypeOf(generator) as object | null;
  if (prototype === null || !patchedPrototypes.has(prototype)) {
    if (
      prototype === null ||
      prototype === ASYNC_GENERATOR_PROTOTYPE ||
      Object.getPrototypeOf(prototype) !== ASYNC_GENERATOR_PROTOTYPE ||
      !patchPrototype(prototype)
    ) {
      return false;
    }
  }
  const previous = generatorCalls.get(generator);
  generatorCalls.set(generator, observer);
  previous?.streamEnded();
  return true;
}

/** Adds `next`/`return`/`throw` to a generator function's `prototype`, calling the intrinsic ones. */
function patchPrototype(prototype: object): boolean {
  if (!Object.isExtensible(prototype)) return false;
  for (const method of GENERATOR_METHODS) {
    if (Object.prototype.hasOwnProperty.call(prototype, method)) return false;
  }
  for (const method of GENERATOR_METHODS) {
    const intrinsic = (ASYNC_GENERATOR_PROTOTYPE as Record<string, (...args: unknown[]) => unknown>)[method]!;
    Object.defineProperty(prototype, method, {
      configurable: true,
      enumerable: false,
      writable: true,
      value: {
        [method](this: object, ...args: unknown[]) {
          const observer = generatorCalls.get(this);
          if (observer === undefined) return Reflect.apply(intrinsic, this, args);
          return watchStep(observer, method, () => Reflect.apply(intrinsic, this, args) as Promise<unknown>);
        },
      }[method],
    });
  }
  patchedPrototypes.add(prototype);
  return true;
}

function watchStep(observer: ResultObserver, method: string, step: () => Promise<unknown>): Promise<unknown> {
  const result = observer.runStep(step);
  // The consumer awaits each step at once (`for await`); one it drops would reject unhandled
  // only after the generator failed, which the span records anyway.
  result.then(
    (res) => {
      if (method !== 'next' || (res as IteratorResult<unknown> | undefined)?.done) observer.streamEnded();
    },
    (err: unknown) => observer.fail(err),
  );
  return result;
}

interface NodeReadableLike {
  once(event: string, listener: () => void): unknown;
  readonly errored?: unknown;
}

function isNodeReadable(value: unknown): value is NodeReadableLike {
  if (!isObjectLike(value)) return false;
  const stream = value as Record<string, unknown>;
  return typeof stream.pipe === 'function' && typeof stream.once === 'function' && 'readable' in stream;
}

/**
 * Ends the span on `close` (or `end`). It adds no `error` listener on purpose: that would turn an
 * unhandled stream error, which crashes the process, into a handled one.
 */
function watchNodeReadable(stream: NodeReadableLike, observer: ResultObserver): void {
  stream.once('end', () => observer.streamEnded());
  stream.once('close', () => {
    let errored: unknown;
    try {
      errored = stream.errored;
    } catch (err) {
      logger.error('could not read the tool stream error', err);
    }
    if (errored === null || errored === undefined || isStoppedByConsumer(errored)) observer.streamEnded();
    else observer.fail(errored);
  });
}

/**
 * Whether a stream was destroyed because its consumer stopped before the end: breaking out of
 * `for await`, `iterator().return()`, `take(n)`. Node then destroys it with its own AbortError
 * (`ABORT_ERR`) and no cause. An abort through a signal carries the signal's reason as `cause`, and
 * an error of the tool's own keeps its own shape: both still mark the span.
 */
function isStoppedByConsumer(errored: unknown): boolean {
  return (
    isObjectLike(errored) &&
    read(errored, 'code') === 'ABORT_ERR' &&
    read(errored, 'name') === 'AbortError' &&
    read(errored, 'cause') === undefined
  );
}

export function isWebReadableStream(value: unknown): value is ReadableStream {
  return typeof ReadableStream === 'function' && value instanceof ReadableStream;
}

/**
 * A web stream cannot be watched in place (`pipeTo` and `tee` bypass any patched method), so it
 * is read through a new stream that pulls on demand: same chunks, same error, same cancel.
 */
export function watchWebStream(stream: ReadableStream, observer: ResultObserver): ReadableStream {
  if (stream.locked) {
    observer.streamEnded();
    return stream;
  }
  const reader = stream.getReader();
  return new ReadableStream(
    {
      pull: async (controller) => {
        try {
          const { done, value } = await observer.runStep(() => reader.read());
          if (done) {
            controller.close();
            observer.streamEnded();
          } else controller.enqueue(value);
        } catch (err) {
          observer.fail(err);
          controller.error(err);
        }
      },
      cancel: (reason) => {
        observer.streamEnded();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}
