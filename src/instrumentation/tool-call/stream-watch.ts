import { types } from 'node:util';
import { isObjectLike, read } from '../../classify/safe';
import { logger } from '../../logger';
import { ClassMethodWatch } from './class-method-watch';
import type { ResultObserver } from './result-observer';

/**
 * Watching a returned stream without changing it: Node streams, native async generators and
 * iterables whose class makes them one are watched in place (no own property added), a web stream
 * is read through a new one.
 */

/** Watches Node streams, native async generators and class iterables; false when `value` is none. */
export function watchStream(value: unknown, observer: ResultObserver): boolean {
  if (isNodeReadable(value)) {
    watchNodeReadable(value, observer);
    return true;
  }
  if (isAsyncGenerator(value)) return watchAsyncGenerator(value, observer);
  if (isObjectLike(value)) return classIterables.watch(value, observer);
  return false;
}

/**
 * An async iterable whose `Symbol.asyncIterator` comes from its class, as the OpenAI and Anthropic
 * SDKs' `Stream` (whose method returns an async generator), is watched through that method (see
 * class-method-watch.ts). The generator it returns for a watched object is watched like any other;
 * an iterator written by hand cannot be watched without changing it, and the span ends when
 * iteration starts (as it does for an object with its own `Symbol.asyncIterator`, not watched).
 */
const classIterables = new ClassMethodWatch([Symbol.asyncIterator], (original, take) => {
  return {
    [Symbol.asyncIterator](this: object, ...args: unknown[]): unknown {
      const iterator = Reflect.apply(original, this, args);
      const observer = take(this);
      if (observer !== undefined && !(isAsyncGenerator(iterator) && watchAsyncGenerator(iterator, observer)))
        observer.streamEnded();
      return iterator;
    },
  }[Symbol.asyncIterator];
});

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
    (err: unknown) => observer.failed(err),
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
    else observer.failed(errored);
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
          observer.failed(err);
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
