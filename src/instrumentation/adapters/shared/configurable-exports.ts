import { types } from 'node:util';

/**
 * The copies made, by every instance: one instance's patch gets the copy another's returned (each
 * instance's module hook hands its result to the next), and patches that copy in place. Two
 * copies would each hold the wrappers of the instances before them, which then no longer come
 * off or back on with their instance. One set per module, since it is shared between instances.
 */
const writableCopies = new WeakSet<object>();

/**
 * Exports a patch can write to. esbuild's CommonJS builds export non-configurable getters, and a
 * module namespace (an ESM package loaded by `require`) cannot be written at all, so the patch
 * returns a configurable copy, kept per module so that unpatching finds the same copy.
 * import-in-the-middle's namespace proxy is written in place.
 */
export class ConfigurableExports<Exports extends object> {
  private readonly copies = new WeakMap<object, Exports>();

  /** The object to patch and hand to the app in place of `exports`. */
  writable(exports: Exports): Exports {
    if (types.isProxy(exports)) return exports;
    let copy = this.copies.get(exports);
    if (!copy) {
      copy = writableCopies.has(exports) ? exports : configurableCopy(exports);
      this.copies.set(exports, copy);
    }
    return copy;
  }

  /** The object `writable` gave for `exports`, if any: what to unpatch. */
  patched(exports: Exports): Exports | undefined {
    return types.isProxy(exports) ? exports : this.copies.get(exports);
  }
}

function configurableCopy<Exports extends object>(exports: Exports): Exports {
  const descriptors = Object.getOwnPropertyDescriptors(exports);
  for (const descriptor of Object.values(descriptors)) descriptor.configurable = true;
  const copy = Object.defineProperties({}, descriptors) as Exports;
  writableCopies.add(copy);
  return copy;
}
