import { logger } from '../../logger';
import type { ResultObserver } from './result-observer';

/**
 * Watching a returned object through the methods its class gives it (a lazy thenable's `then`, a
 * cancelable promise's `then`/`catch`/`finally`, an iterable's `Symbol.asyncIterator`), without
 * calling them and without changing the object. Each method, on the prototype that owns it, is
 * wrapped once; the call is kept in a WeakMap entry per object and handed to the wrapper by `take`
 * when the caller first calls one of them. An object with the first method as its own property, or
 * whose prototypes cannot take the wrappers, is not watched. One whose caller has called none of
 * them by the next turn of the event loop is handed to `expire` then (by default its span ends,
 * without an outcome).
 */

/** Builds the wrapper of `original` (named `key`); `take(self)` gives the call watching `self`, once. */
export type MethodWrapper = (
  original: (...args: unknown[]) => unknown,
  take: (self: object) => ResultObserver | undefined,
  key: PropertyKey,
) => (this: object, ...args: unknown[]) => unknown;

interface OwnedMethod {
  key: PropertyKey;
  prototype: object;
  descriptor: PropertyDescriptor;
}

/** Prototypes never wrapped, whatever a library added to them. */
const INTRINSIC_PROTOTYPES = new Set<object | null>([
  null,
  Object.prototype,
  Function.prototype,
  Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}.prototype)) as object,
]);
const MAX_PROTOTYPE_DEPTH = 16;

/** What becomes of a watched object its caller has not reacted to by the next turn. */
export type Expire = (value: object, observer: ResultObserver) => void;

export class ClassMethodWatch {
  private readonly calls = new WeakMap<object, ResultObserver>();
  /**
   * How many objects wait in `calls`: the wrapped methods run for every object of the class in
   * the app, and most of the time none is watched.
   */
  private waiting = 0;
  /** Prototypes of watched objects whose methods are wrapped. */
  private readonly wrappedPrototypes = new WeakSet<object>();
  /** The methods wrapped on each owner (a base class shared by several watched classes, once). */
  private readonly wrappedMethods = new WeakMap<object, Set<PropertyKey>>();
  private readonly take = (self: object): ResultObserver | undefined => {
    if (this.waiting === 0) return undefined;
    const observer = this.calls.get(self);
    if (observer !== undefined) this.forget(self);
    return observer;
  };

  constructor(
    private readonly keys: readonly PropertyKey[],
    private readonly wrapper: MethodWrapper,
    private readonly expire: Expire = (_value, observer) => observer.streamEnded(),
  ) {}

  /** Watches `value` from its caller's first call of a method; false when it cannot be watched. */
  watch(value: object, observer: ResultObserver): boolean {
    if (Object.prototype.hasOwnProperty.call(value, this.keys[0]!)) return false;
    const prototype = Object.getPrototypeOf(value) as object | null;
    if (prototype === null) return false;
    if (!this.wrappedPrototypes.has(prototype) && !this.wrap(prototype)) return false;
    const previous = this.calls.get(value);
    this.calls.set(value, observer);
    if (previous === undefined) this.waiting++;
    // A later call returning the same object takes it over: the earlier call's span ends.
    previous?.streamEnded();
    setImmediate(() => {
      if (this.calls.get(value) !== observer) return;
      this.forget(value);
      try {
        this.expire(value, observer);
      } catch (err) {
        logger.error('could not watch the tool result', err);
        observer.streamEnded();
      }
    });
    return true;
  }

  private forget(value: object): void {
    this.calls.delete(value);
    this.waiting--;
  }

  /** Wraps each method where `prototype`'s chain has it: all of them, or none. */
  private wrap(prototype: object): boolean {
    const methods = this.keys.map((key) => ownedMethod(prototype, key));
    if (methods.some((method) => method === undefined)) return false;
    for (const { key, prototype: owner, descriptor } of methods as OwnedMethod[]) {
      let wrapped = this.wrappedMethods.get(owner);
      if (wrapped === undefined) this.wrappedMethods.set(owner, (wrapped = new Set()));
      if (wrapped.has(key)) continue;
      const original = descriptor.value as (...args: unknown[]) => unknown;
      Object.defineProperty(owner, key, { ...descriptor, value: this.wrapper(original, this.take, key) });
      wrapped.add(key);
    }
    this.wrappedPrototypes.add(prototype);
    return true;
  }
}

/** The method `key` on the nearest prototype from `prototype` that owns it, if it can be wrapped. */
function ownedMethod(prototype: object, key: PropertyKey): OwnedMethod | undefined {
  let owner: object | null = prototype;
  for (let depth = 0; depth < MAX_PROTOTYPE_DEPTH; depth++) {
    if (INTRINSIC_PROTOTYPES.has(owner)) return undefined;
    const descriptor = Object.getOwnPropertyDescriptor(owner!, key);
    if (descriptor !== undefined) {
      const wrappable =
        typeof descriptor.value === 'function' &&
        descriptor.writable === true &&
        descriptor.configurable === true &&
        Object.isExtensible(owner);
      return wrappable ? { key, prototype: owner!, descriptor } : undefined;
    }
    owner = Object.getPrototypeOf(owner) as object | null;
  }
  return undefined;
}
