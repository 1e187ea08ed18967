import type { ResultObserver } from './result-observer';

/**
 * Watching a returned object through a method its class gives it (a lazy thenable's `then`, an
 * iterable's `Symbol.asyncIterator`), without calling that method and without changing the object.
 * The method on the prototype that owns it is wrapped once; the call is kept in a WeakMap entry per
 * object and handed to the wrapper by `take` when the caller first calls the method. An object
 * with the method as its own property, or whose prototype cannot take the wrapper, is not watched.
 * One whose caller has not called the method by the next turn of the event loop ends its span then,
 * without an outcome.
 */

/** Builds the wrapper of `original`; `take(self)` gives the call watching `self`, once. */
export type MethodWrapper = (
  original: (...args: unknown[]) => unknown,
  take: (self: object) => ResultObserver | undefined,
) => (this: object, ...args: unknown[]) => unknown;

/** Prototypes never wrapped, whatever a library added to them. */
const INTRINSIC_PROTOTYPES = new Set<object | null>([
  null,
  Object.prototype,
  Function.prototype,
  Object.getPrototypeOf(Object.getPrototypeOf(async function* () {}.prototype)) as object,
]);
const MAX_PROTOTYPE_DEPTH = 16;

export class ClassMethodWatch {
  private readonly calls = new WeakMap<object, ResultObserver>();
  private readonly wrappedPrototypes = new WeakSet<object>();
  private readonly take = (self: object): ResultObserver | undefined => {
    const observer = this.calls.get(self);
    if (observer !== undefined) this.calls.delete(self);
    return observer;
  };

  constructor(
    private readonly key: PropertyKey,
    private readonly wrapper: MethodWrapper,
  ) {}

  /** Watches `value` from its caller's first call of the method; false when it cannot be watched. */
  watch(value: object, observer: ResultObserver): boolean {
    const prototype = this.owningPrototype(value);
    if (prototype === undefined) return false;
    if (!this.wrappedPrototypes.has(prototype) && !this.wrap(prototype)) return false;
    const previous = this.calls.get(value);
    this.calls.set(value, observer);
    // A later call returning the same object takes it over: the earlier call's span ends.
    previous?.streamEnded();
    setImmediate(() => {
      if (this.calls.get(value) !== observer) return;
      this.calls.delete(value);
      observer.streamEnded();
    });
    return true;
  }

  /** The prototype in `value`'s chain that owns the method, if `value` has no such own property. */
  private owningPrototype(value: object): object | undefined {
    if (Object.prototype.hasOwnProperty.call(value, this.key)) return undefined;
    let prototype = Object.getPrototypeOf(value) as object | null;
    for (let depth = 0; depth < MAX_PROTOTYPE_DEPTH; depth++) {
      if (INTRINSIC_PROTOTYPES.has(prototype)) return undefined;
      if (Object.prototype.hasOwnProperty.call(prototype, this.key)) return prototype!;
      prototype = Object.getPrototypeOf(prototype) as object | null;
    }
    return undefined;
  }

  private wrap(prototype: object): boolean {
    const descriptor = Object.getOwnPropertyDescriptor(prototype, this.key);
    const original = descriptor?.value as unknown;
    if (typeof original !== 'function' || !descriptor!.writable || !descriptor!.configurable) return false;
    if (!Object.isExtensible(prototype)) return false;
    const wrapped = this.wrapper(original as (...args: unknown[]) => unknown, this.take);
    Object.defineProperty(prototype, this.key, { ...descriptor, value: wrapped });
    this.wrappedPrototypes.add(prototype);
    return true;
  }
}
