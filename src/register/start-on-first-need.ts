import Module, { createRequire } from 'node:module';
import { globalsStartingTheRegister, packagesStartingTheRegister } from './hooked-modules';
import { receiveWorkerSpans } from '../export/worker-spans';
import { packageOf } from './stand-in-hook';

/** Where every copy of `@opentelemetry/api` 1.x keeps the providers, context manager and propagator. */
const API_GLOBAL = Symbol.for('opentelemetry.js.api.1');
/** The start an entry point is waiting to run, for the other entry point of a process that loads both. */
const PENDING_START = Symbol.for('otel-tool-errors.register.pending-start');

type Holder = typeof globalThis & Record<string | symbol, unknown> & { [PENDING_START]?: () => void };
type Require = (this: Module, id: string) => unknown;

/**
 * True when the register must start at once: OpenTelemetry is in use already (the start says so),
 * or the other entry point is waiting to start (both `--require` and `--import`: it starts now).
 */
export function mustStartNow(): boolean {
  const holder = globalThis as Holder;
  const pending = holder[PENDING_START];
  if (pending !== undefined) {
    pending();
    return true;
  }
  return holder[API_GLOBAL] !== undefined;
}

/**
 * Runs `start` when the app first needs telemetry, so that a process that never does pays for none
 * of the SDK: a `require` of a patched module, undici or the api; a read of the api's (or an
 * adapter's) global registry, whichever copy reads it; the first `fetch()`; with `esmMain`, an ES
 * module entry after its first turn. Returns the function that starts at once.
 */
export function startOnFirstNeed(start: () => void, { esmMain }: { esmMain: boolean }): () => void {
  const holder = globalThis as Holder;
  const undo: (() => void)[] = [];
  let pending = true;
  const now = () => {
    if (!pending) return;
    pending = false;
    delete holder[PENDING_START];
    for (const stopWatching of undo) stopWatching();
    start();
  };
  holder[PENDING_START] = now;
  undo.push(watchRequire(now), watchFetch(now));
  for (const key of [API_GLOBAL, ...globalsStartingTheRegister()]) undo.push(watchGlobal(key, now));
  if (esmMain) undo.push(watchEsmMain(now));
  receiveWorkerSpans(now);
  return now;
}

/** Wraps `require` until the start; a watched package then loads through the start's (patching) `require`. */
function watchRequire(now: () => void): () => void {
  const prototype = Module.prototype as unknown as { require: Require };
  const original = prototype.require;
  const packages = packagesStartingTheRegister();
  let watching = true;
  const wrapper = function require(this: Module, id: string) {
    const watched = watching && typeof id === 'string' && packages.has(packageOf(id) ?? '');
    // eslint-disable-next-line prefer-rest-params -- `require` gets its arguments as they were
    if (!watched) return Reflect.apply(original, this, arguments);
    now();
    const current = prototype.require;
    // eslint-disable-next-line prefer-rest-params -- as above
    return Reflect.apply(current === wrapper ? original : current, this, arguments);
  };
  prototype.require = wrapper;
  return () => {
    watching = false;
    if (prototype.require === wrapper) prototype.require = original;
  };
}

/** An accessor in place of a global registry until the start: a read or a write starts the register. */
function watchGlobal(key: string | symbol, now: () => void): () => void {
  const holder = globalThis as Holder;
  if (Object.getOwnPropertyDescriptor(holder, key) !== undefined) return () => undefined;
  const get = () => {
    now();
    return holder[key];
  };
  const set = (value: unknown) => {
    stopWatching();
    holder[key] = value;
    now();
  };
  const stopWatching = () => {
    if (Object.getOwnPropertyDescriptor(holder, key)?.get === get) delete holder[key];
  };
  Object.defineProperty(holder, key, { configurable: true, enumerable: false, get, set });
  return stopWatching;
}

/** `fetch` starts the register before its first request, then is Node's own again. */
function watchFetch(now: () => void): () => void {
  const descriptor = Object.getOwnPropertyDescriptor(globalThis, 'fetch');
  const original: unknown = descriptor?.value;
  if (descriptor === undefined || typeof original !== 'function' || !descriptor.configurable) {
    return () => undefined;
  }
  const fetch = function fetch(this: unknown) {
    now();
    // eslint-disable-next-line prefer-rest-params -- `fetch` gets its arguments as they were
    return Reflect.apply(original, this, arguments) as unknown;
  };
  Object.defineProperty(fetch, 'length', { value: original.length });
  Object.defineProperty(globalThis, 'fetch', { ...descriptor, value: fetch });
  return () => {
    if (globalThis.fetch === (fetch as unknown)) Object.defineProperty(globalThis, 'fetch', descriptor);
  };
}

/** An ES module entry point never sets `require.main`; by the first turn, a CommonJS one has. */
function watchEsmMain(now: () => void): () => void {
  if (process.argv[1] === undefined) return () => undefined;
  const immediate = setImmediate(() => {
    if (createRequire(__filename).main === undefined) now();
  });
  return () => clearImmediate(immediate);
}
