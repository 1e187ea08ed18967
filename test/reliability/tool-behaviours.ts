import { Readable } from 'node:stream';
import { runInNewContext } from 'node:vm';
import Bluebird from 'bluebird';
import fc from 'fast-check';

/**
 * Generated tool behaviours for the transparency property: what a tool returns or throws, how late,
 * through which kind of value (promise, lazy thenable, async generator, hand-written async iterable,
 * web ReadableStream, Node Readable), and how the caller consumes it. Every tool writes its side
 * effects (start, `this`, arguments, each chunk produced, settling, `finally`) to an event log, so
 * a run through a wrapper can be compared entry by entry with a bare run.
 */

/** How long a tool waits before it settles or produces the next chunk. */
export type Delay =
  { type: 'now' } | { type: 'microtasks'; count: number } | { type: 'immediate' } | { type: 'timer' };

export type Outcome = { type: 'return'; value: unknown } | { type: 'throw'; value: unknown };

export type Shape =
  | { kind: 'sync' }
  | { kind: 'async'; delay: Delay }
  | { kind: 'promise'; delay: Delay }
  | { kind: 'lazyThenable'; delay: Delay; fromClass: boolean }
  | { kind: 'promiseSubclass'; delay: Delay }
  | { kind: 'bluebird'; delay: Delay }
  | { kind: 'asyncGenerator'; items: unknown[]; delay: Delay; inPromise: boolean }
  | { kind: 'asyncIterable'; items: unknown[]; delay: Delay; inPromise: boolean; fromClass: boolean }
  | { kind: 'webStream'; items: unknown[]; inPromise: boolean }
  | { kind: 'nodeStream'; items: unknown[] };

export interface Scenario {
  shape: Shape;
  /** For streams: what happens after the items (a return value or an error midway). */
  outcome: Outcome;
  thisArg: unknown;
  args: unknown[];
  /** Streams only: how many chunks the consumer reads before it stops early (`return`/`cancel`). */
  stopAfter: number | undefined;
}

export type LogEntry = readonly [string, ...unknown[]];
export type Log = LogEntry[];

/** A Proxy whose every trap throws: reading anything from it fails. */
export function throwingProxy(target: object = {}): object {
  const boom = (): never => {
    throw new Error('hostile trap');
  };
  return new Proxy(target, {
    get: boom,
    has: boom,
    getPrototypeOf: boom,
    ownKeys: boom,
    getOwnPropertyDescriptor: boom,
    set: boom,
    defineProperty: boom,
    isExtensible: boom,
  });
}

/** An Error whose common fields are getters that throw. */
export function errorWithThrowingGetters(): Error {
  const err = new Error('getters');
  // `stack` first: defining it formats the stack, which reads `name` and `message`.
  for (const key of [
    'stack',
    'message',
    'name',
    'code',
    'status',
    'statusCode',
    'cause',
    'constructor',
    'response',
  ]) {
    Object.defineProperty(err, key, {
      get() {
        throw new Error(`getter ${key}`);
      },
    });
  }
  return err;
}

/**
 * A value made only after generation. fast-check inspects generated values (it reads a clone
 * method from every object), which a hostile Proxy would not survive; `materialize` builds these.
 */
export class Deferred {
  constructor(readonly make: () => unknown) {}
}
const deferred = (make: () => unknown) => fc.constant(null).map(() => new Deferred(make));

class ToolBoomError extends Error {
  override name = 'ToolBoomError';
}

/** Values a tool may throw: Error subclasses and everything JavaScript allows. */
export const thrownValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string().map((m) => new Error(m)),
  fc.string().map((m) => new TypeError(m)),
  fc.string().map((m) => new RangeError(m)),
  fc.string().map((m) => new ToolBoomError(m)),
  fc.constantFrom('TimeoutError', 'AbortError', 'NetworkError').map((n) => new DOMException('dom', n)),
  fc.integer({ min: 100, max: 599 }).map((status) => Object.assign(new Error(`HTTP ${status}`), { status })),
  fc
    .constantFrom('ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND')
    .map((code) => Object.assign(new Error(code), { code })),
  fc.constant(null).map(() => new AggregateError([new Error('a'), 'b'], 'many')),
  fc.string(),
  fc.constantFrom(null, undefined, 0, -0, NaN, 42n, true),
  fc.string().map((d) => Symbol(d)),
  fc.object(),
  fc.object().map((o) => Object.freeze(o)),
  fc.string().map((m) => Object.freeze(new Error(m))),
  deferred(() => throwingProxy()),
  deferred(() => throwingProxy(new Error('proxied'))),
  deferred(() => errorWithThrowingGetters()),
  // Errors from another realm fail `instanceof Error`.
  fc.string().map((m) => new Deferred(() => runInNewContext('new Error(m)', { m }))),
  deferred(() => runInNewContext(`Object.assign(new TypeError('refused'), { code: 'ECONNREFUSED' })`)),
);

/**
 * Counts code of a returned value that ran (getters, `toJSON`, Proxy traps): the caller of these
 * tools never runs any, so any count is the wrapper's doing.
 */
export const userCode = { runs: 0 };

class ResultWithGetter {
  readonly city = 'Paris';
  get computed(): string {
    userCode.runs++;
    return 'computed';
  }
  toJSON(): unknown {
    userCode.runs++;
    return {};
  }
}

function resultWithHooks(): object {
  const result = new ResultWithGetter();
  Object.defineProperty(result, 'ownGetter', {
    enumerable: true,
    get: () => {
      userCode.runs++;
      return 1;
    },
  });
  const countingProxy = new Proxy(
    {},
    {
      get: () => userCode.runs++,
      ownKeys: () => (userCode.runs++, []),
      getOwnPropertyDescriptor: () => (userCode.runs++, undefined),
    },
  );
  return { result, countingProxy, error: new Proxy({}, { get: () => userCode.runs++ }) };
}

/** Values a tool may return, including error-shaped results the wrapper classifies. */
export const returnedValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({ withBigInt: true, withMap: true, withSet: true, withTypedArray: true, withDate: true }),
  fc.object().map((o) => Object.freeze(o)),
  deferred(() => throwingProxy()),
  fc.string().map((d) => Symbol(d)),
  fc.string().map((text) => ({ isError: true, content: [{ type: 'text', text }] })),
  fc.string().map((error) => ({ success: false, error })),
  fc.string().map((message) => Object.freeze({ status: 'error', message })),
  fc.constant(null).map(() => function namedResult() {}),
  fc.constant(null).map(() => [1, 2, 3][Symbol.iterator]()),
  deferred(() => resultWithHooks()),
  deferred(() => new ResultWithGetter()),
  fc.string().map((m) => new Deferred(() => ({ error: runInNewContext('new Error(m)', { m }) }))),
);

export const delay: fc.Arbitrary<Delay> = fc.oneof(
  { arbitrary: fc.constant<Delay>({ type: 'now' }), weight: 3 },
  {
    arbitrary: fc.integer({ min: 1, max: 5 }).map<Delay>((count) => ({ type: 'microtasks', count })),
    weight: 3,
  },
  { arbitrary: fc.constant<Delay>({ type: 'immediate' }), weight: 2 },
  // Timers cost a millisecond each: rare, so the suite stays fast.
  { arbitrary: fc.constant<Delay>({ type: 'timer' }), weight: 1 },
);

const items = fc.array(returnedValue, { maxLength: 4 });

export const shape: fc.Arbitrary<Shape> = fc.oneof(
  fc.constant<Shape>({ kind: 'sync' }),
  delay.map<Shape>((d) => ({ kind: 'async', delay: d })),
  delay.map<Shape>((d) => ({ kind: 'promise', delay: d })),
  delay.map<Shape>((d) => ({ kind: 'promiseSubclass', delay: d })),
  delay.map<Shape>((d) => ({ kind: 'bluebird', delay: d })),
  fc.record({ items, delay, inPromise: fc.boolean() }).map<Shape>((s) => ({ kind: 'asyncGenerator', ...s })),
  fc
    .record({ items, delay, inPromise: fc.boolean(), fromClass: fc.boolean() })
    .map<Shape>((s) => ({ kind: 'asyncIterable', ...s })),
  fc.record({ items, inPromise: fc.boolean() }).map<Shape>((s) => ({ kind: 'webStream', ...s })),
  items.map<Shape>((i) => ({ kind: 'nodeStream', items: i })),
);

const outcome: fc.Arbitrary<Outcome> = fc.oneof(
  returnedValue.map<Outcome>((value) => ({ type: 'return', value })),
  thrownValue.map<Outcome>((value) => ({ type: 'throw', value })),
);

function scenarioOf(shapes: fc.Arbitrary<Shape>): fc.Arbitrary<Scenario> {
  return fc
    .record({
      shape: shapes,
      outcome,
      thisArg: fc.oneof(
        fc.constant(undefined),
        fc.object(),
        fc.constant(globalThis),
        fc.string(),
        fc.integer(),
      ),
      args: fc.array(fc.anything(), { maxLength: 3 }),
      stopAfter: fc.option(fc.nat({ max: 3 }), { nil: undefined }),
    })
    .filter(
      // Node's own stream code throws uncaught on an error whose fields throw, and the bare
      // stream then never ends: nothing there for a wrapper to preserve.
      // Bluebird's own code likewise throws from its scheduler on a value whose traps throw.
      (s) =>
        !(
          (s.shape.kind === 'nodeStream' || s.shape.kind === 'bluebird') &&
          s.outcome.value instanceof Deferred
        ),
    );
}

/** Every shape whose value the wrapper watches in place (all but lazy thenables). */
export const scenario: fc.Arbitrary<Scenario> = scenarioOf(shape);

/** Tools that return a lazy thenable: the work runs when, and each time, `then` is called. */
export const lazyThenableScenario: fc.Arbitrary<Scenario> = scenarioOf(
  fc
    .tuple(delay, fc.boolean())
    .map<Shape>(([d, fromClass]) => ({ kind: 'lazyThenable', delay: d, fromClass })),
);

async function wait(d: Delay): Promise<void> {
  switch (d.type) {
    case 'now':
      return;
    case 'microtasks':
      for (let i = 0; i < d.count; i++) await null;
      return;
    case 'immediate':
      return new Promise((resolve) => setImmediate(resolve));
    case 'timer':
      return new Promise((resolve) => setTimeout(resolve, 0));
  }
}

function settle(o: Outcome): unknown {
  if (o.type === 'throw') throw o.value;
  return o.value;
}

/**
 * The tool for a scenario: a plain (non-async) function whose body logs its side effects and
 * returns or throws as the scenario says. `this` and every argument are logged too.
 */
export function makeTool(s: Scenario, log: Log): (...args: unknown[]) => unknown {
  return function tool(this: unknown, ...args: unknown[]): unknown {
    log.push(['tool:start', this, args.length, ...args]);
    const { shape: sh, outcome: o } = s;
    const created = (value: unknown) => {
      log.push(['tool:created', value]);
      return value;
    };
    switch (sh.kind) {
      case 'sync':
        return settle(o);
      case 'async':
        return (async () => {
          await wait(sh.delay);
          log.push(['tool:settling']);
          return settle(o);
        })();
      case 'promise':
        return created(
          new Promise((resolve, reject) => {
            void wait(sh.delay).then(() => {
              log.push(['tool:settling']);
              if (o.type === 'throw') reject(o.value);
              else resolve(o.value);
            });
          }),
        );
      case 'lazyThenable':
        return created(sh.fromClass ? new LazyQuery(o, sh.delay, log) : lazyThenable(o, sh.delay, log));
      case 'promiseSubclass':
        return created(
          new LoggedPromise(log, (resolve, reject) => {
            void wait(sh.delay).then(() => {
              log.push(['tool:settling']);
              if (o.type === 'throw') reject(o.value);
              else resolve(o.value);
            });
          }),
        );
      case 'bluebird':
        return created(
          new Bluebird((resolve, reject) => {
            void wait(sh.delay).then(() => {
              log.push(['tool:settling']);
              if (o.type === 'throw') reject(o.value);
              else resolve(o.value);
            });
          }),
        );
      case 'asyncGenerator': {
        const gen = created(generator(sh.items, o, sh.delay, log));
        return sh.inPromise ? Promise.resolve().then(() => gen) : gen;
      }
      case 'asyncIterable': {
        const iterable = created(
          sh.fromClass
            ? new GeneratingIterable(sh.items, o, sh.delay, log)
            : handWrittenIterable(sh.items, o, sh.delay, log),
        );
        return sh.inPromise ? Promise.resolve().then(() => iterable) : iterable;
      }
      case 'webStream': {
        const stream = created(webStream(sh.items, o, log));
        return sh.inPromise ? Promise.resolve().then(() => stream) : stream;
      }
      case 'nodeStream':
        return created(Readable.from(generator(sh.items, o, { type: 'now' }, log), { objectMode: true }));
    }
  };
}

/** A Promise subclass whose `then` logs each call: the wrapper must call it no more than the caller. */
class LoggedPromise<T> extends Promise<T> {
  private readonly log: Log | undefined;
  constructor(
    log: Log | undefined,
    executor: (resolve: (value: T) => void, reject: (reason: unknown) => void) => void,
  ) {
    super(executor);
    this.log = log;
  }
  static override get [Symbol.species](): PromiseConstructor {
    return Promise;
  }
  override then<A = T, B = never>(
    onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.log?.push(['tool:then-called']);
    return super.then(onFulfilled, onRejected);
  }
}

/** A thenable that does its work only when `then` is called, like a query builder. */
function lazyThenable(
  o: Outcome,
  d: Delay,
  log: Log,
): { then: (...callbacks: unknown[]) => Promise<unknown> } {
  return {
    then(onFulfilled?: unknown, onRejected?: unknown) {
      log.push(['tool:then-called']);
      return new Promise((resolve, reject) => {
        void wait(d).then(() => {
          log.push(['tool:settling']);
          if (o.type === 'throw') reject(o.value);
          else resolve(o.value);
        });
      }).then(onFulfilled as (v: unknown) => unknown, onRejected as (e: unknown) => unknown);
    },
  };
}

/** The same, with `then` from its class, as in superagent, Knex or Mongoose: watched when it is called. */
class LazyQuery {
  constructor(
    private readonly outcome: Outcome,
    private readonly delay: Delay,
    private readonly log: Log,
  ) {}

  then(onFulfilled?: unknown, onRejected?: unknown): Promise<unknown> {
    return lazyThenable(this.outcome, this.delay, this.log).then(onFulfilled, onRejected);
  }
}

async function* generator(
  values: unknown[],
  o: Outcome,
  d: Delay,
  log: Log,
): AsyncGenerator<unknown, unknown> {
  try {
    for (let i = 0; i < values.length; i++) {
      await wait(d);
      log.push(['tool:yield', i]);
      yield values[i];
    }
    await wait(d);
    log.push(['tool:settling']);
    return settle(o);
  } finally {
    log.push(['tool:finally']);
  }
}

/** An async iterable whose class method hands out a generator, as the OpenAI SDK's `Stream`. */
class GeneratingIterable {
  constructor(
    private readonly values: unknown[],
    private readonly outcome: Outcome,
    private readonly delay: Delay,
    private readonly log: Log,
  ) {}

  [Symbol.asyncIterator](): AsyncGenerator<unknown, unknown> {
    this.log.push(['tool:iterator']);
    return generator(this.values, this.outcome, this.delay, this.log);
  }
}

/** An async iterable written by hand: an own `Symbol.asyncIterator` returning a plain iterator. */
function handWrittenIterable(values: unknown[], o: Outcome, d: Delay, log: Log): AsyncIterable<unknown> {
  return {
    [Symbol.asyncIterator]() {
      let i = 0;
      log.push(['tool:iterator']);
      return {
        async next() {
          await wait(d);
          if (i < values.length) {
            log.push(['tool:yield', i]);
            return { done: false, value: values[i++] };
          }
          log.push(['tool:settling']);
          return { done: true, value: settle(o) };
        },
        async return(value?: unknown) {
          log.push(['tool:return-called']);
          return { done: true, value };
        },
      };
    },
  };
}

function webStream(values: unknown[], o: Outcome, log: Log): ReadableStream<unknown> {
  let i = 0;
  return new ReadableStream<unknown>(
    {
      pull(controller) {
        if (i < values.length) {
          log.push(['tool:pull', i]);
          controller.enqueue(values[i++]);
          return;
        }
        log.push(['tool:settling']);
        if (o.type === 'throw') controller.error(o.value);
        else controller.close();
      },
      cancel() {
        log.push(['tool:cancel']);
      },
    },
    // Pull only on demand, so the log shows exactly which reads reached the source.
    { highWaterMark: 0 },
  );
}

/** Builds the deferred values of a generated scenario, once: both runs then share them. */
export function materialize(s: Scenario): Scenario {
  const real = (value: unknown) => (value instanceof Deferred ? value.make() : value);
  const shape = 'items' in s.shape ? { ...s.shape, items: s.shape.items.map(real) } : s.shape;
  return {
    ...s,
    shape,
    outcome: { ...s.outcome, value: real(s.outcome.value) },
    thisArg: real(s.thisArg),
    args: s.args.map(real),
  };
}

/** Every object and symbol the scenario holds at the top level: the values whose identity counts. */
export function sharedValues(s: Scenario): Map<unknown, string> {
  const shared = new Map<unknown, string>();
  const add = (value: unknown, name: string) => {
    if (
      (typeof value === 'object' && value !== null) ||
      typeof value === 'function' ||
      typeof value === 'symbol'
    ) {
      if (!shared.has(value)) shared.set(value, name);
    }
  };
  add(s.thisArg, 'this');
  s.args.forEach((arg, i) => add(arg, `arg${i}`));
  add(s.outcome.value, 'outcome');
  if ('items' in s.shape) s.shape.items.forEach((item, i) => add(item, `item${i}`));
  return shared;
}

/** Own keys every function has; `instrumentTool` gives the wrapper its own versions of these. */
export const FUNCTION_KEYS: ReadonlySet<PropertyKey> = new Set([
  'length',
  'name',
  'prototype',
  'arguments',
  'caller',
]);

type FunctionKind =
  | 'function'
  | 'arrow'
  | 'async'
  | 'asyncArrow'
  | 'method'
  | 'class'
  | 'bound'
  | 'generator'
  | 'asyncGenerator';

export interface FunctionSpec {
  kind: FunctionKind;
  length: number | undefined;
  name: string | undefined;
  props: {
    key: string | symbol;
    accessor: boolean;
    value: unknown;
    enumerable: boolean;
    writable: boolean;
    configurable: boolean;
  }[];
}

export const functionSpec: fc.Arbitrary<FunctionSpec> = fc.record({
  kind: fc.constantFrom<FunctionKind>(
    'function',
    'arrow',
    'async',
    'asyncArrow',
    'method',
    'class',
    'bound',
    'generator',
    'asyncGenerator',
  ),
  length: fc.option(fc.nat({ max: 10 }), { nil: undefined }),
  name: fc.option(fc.string(), { nil: undefined }),
  props: fc.uniqueArray(
    fc.record({
      key: fc.oneof(
        fc.string().filter((k) => !FUNCTION_KEYS.has(k)),
        fc.string().map((d) => Symbol(d)),
      ),
      accessor: fc.boolean(),
      value: fc.anything(),
      enumerable: fc.boolean(),
      writable: fc.boolean(),
      configurable: fc.boolean(),
    }),
    { selector: (p) => p.key, maxLength: 5 },
  ),
});

/** A fresh function of the spec's kind, with its `length`, `name` and own properties. */
export function buildFunction(spec: FunctionSpec): (...args: any[]) => unknown {
  const fn = makeOfKind(spec.kind);
  if (spec.length !== undefined) Object.defineProperty(fn, 'length', { value: spec.length });
  if (spec.name !== undefined) Object.defineProperty(fn, 'name', { value: spec.name });
  for (const p of spec.props) {
    const value = p.value;
    Object.defineProperty(
      fn,
      p.key,
      p.accessor
        ? { get: () => value, set: () => undefined, enumerable: p.enumerable, configurable: p.configurable }
        : { value, writable: p.writable, enumerable: p.enumerable, configurable: p.configurable },
    );
  }
  return fn;
}

function makeOfKind(kind: FunctionKind): (...args: any[]) => unknown {
  switch (kind) {
    case 'function':
      return function plain(_a: unknown, _b: unknown) {};
    case 'arrow':
      return (_a: unknown) => undefined;
    case 'async':
      return async function asyncPlain(_a: unknown) {};
    case 'asyncArrow':
      return async (_a: unknown, _b: unknown, _c: unknown) => undefined;
    case 'method':
      return { method(_a: unknown) {} }.method;
    case 'class':
      return class Tool {
        constructor(_a: unknown) {}
      } as unknown as (...args: any[]) => unknown;
    case 'bound':
      return function target(_a: unknown, _b: unknown) {}.bind(null, 1);
    case 'generator':
      return function* gen(_a: unknown) {};
    case 'asyncGenerator':
      return async function* asyncGen(_a: unknown) {};
  }
}
