import { Readable } from 'node:stream';
import { SpanStatusCode, context, trace, type Context, type Tracer } from '@opentelemetry/api';
import { expect } from 'chai';
import fc from 'fast-check';
import { instrumentTool } from '../../src/instrumentation/instrument-tool';
import { traceToolCall } from '../../src/instrumentation/tool-call/trace-tool-call';
import { ToolErrorSpanProcessor } from '../../src';
import { createTestTracing, type TestTracing } from '../helpers/tracing';
import { heavy } from './heavy';
import {
  FUNCTION_KEYS,
  buildFunction,
  functionSpec,
  lazyThenableScenario,
  makeTool,
  materialize,
  scenario,
  sharedValues,
  userCode,
  type Log,
  type Scenario,
} from './tool-behaviours';

/**
 * The instrumented tool and the bare tool must be indistinguishable to their caller: the same
 * values and errors (by identity), synchronous where the tool is, and every side effect in the same
 * order relative to a concurrent microtask ticker. Each generated scenario runs three times (bare,
 * through `instrumentTool`, through `traceToolCall`) and the normalised event logs must be equal.
 *
 * The one documented exception: a web `ReadableStream` returned synchronously is handed back as a
 * new pass-through stream (see traceToolCall), so for that shape the returned identity and the
 * microtask timing are not compared; the chunks, their identity, the error and every read that
 * reaches the tool's source still are.
 */

const TOOL_NAME = 'transparent';
const TICKS = 40;
const SEED = Number(process.env.RELIABILITY_SEED ?? Date.now() % 2 ** 31);

type Where = 'root' | 'parent' | 'framework' | 'nested';
const PLACES: readonly Where[] = ['root', 'parent', 'framework', 'nested'];

/** Runs `invoke` as a caller would and logs what the caller sees, interleaved with ticker entries. */
async function observe(invoke: () => unknown, s: Scenario, log: Log): Promise<void> {
  let ticking = true;
  const ticker = (async () => {
    for (let i = 0; i < TICKS && ticking; i++) {
      log.push(['tick', i]);
      await null;
    }
  })();
  let value: unknown;
  let ok = true;
  try {
    value = invoke();
    log.push(['returned', value]);
  } catch (err) {
    log.push(['threw', err]);
    ok = false;
  }
  if (ok) {
    try {
      value = await value;
      log.push(['resolved', value]);
    } catch (err) {
      log.push(['rejected', err]);
      ok = false;
    }
  }
  if (ok) await consume(value, s, log);
  ticking = false;
  await ticker;
  // Bluebird keeps every reaction past the first in indexed own fields: any `then` adds some.
  log.push(['ownKeys', ...(s.shape.kind === 'bluebird' ? [] : ownKeysOf(value))]);
}

/**
 * Symbols Node's async_hooks puts on a promise it tracks (with an AsyncLocalStorage on Node 20,
 * whether or not promise hooks are on when the promise is made): Node's, not the wrapper's.
 */
const ASYNC_HOOKS_SYMBOLS = new Set(['async_id_symbol', 'trigger_async_id_symbol', 'kResourceStore']);

/** The returned value's own keys, after the caller is done with it: the wrapper adds none. */
function ownKeysOf(value: unknown): unknown[] {
  if ((typeof value !== 'object' || value === null) && typeof value !== 'function') return [];
  try {
    return Reflect.ownKeys(value).filter(
      (key) => typeof key !== 'symbol' || !ASYNC_HOOKS_SYMBOLS.has(key.description ?? ''),
    );
  } catch {
    return ['threw'];
  }
}

async function consume(value: unknown, s: Scenario, log: Log): Promise<void> {
  const kind = s.shape.kind;
  if (kind === 'webStream') {
    try {
      const reader = (value as ReadableStream).getReader();
      for (let n = 0; ; n++) {
        if (n === s.stopAfter) {
          await reader.cancel('enough');
          log.push(['cancelled']);
          return;
        }
        const { done, value: chunk } = await reader.read();
        if (done) return void log.push(['done']);
        log.push(['chunk', chunk]);
      }
    } catch (err) {
      log.push(['stream-error', err]);
    }
    return;
  }
  if (kind === 'asyncGenerator' || kind === 'asyncIterable' || kind === 'nodeStream') {
    try {
      let n = 0;
      for await (const chunk of value as AsyncIterable<unknown>) {
        log.push(['chunk', chunk]);
        if (++n === s.stopAfter) break;
      }
      log.push(['done']);
    } catch (err) {
      log.push(['stream-error', err]);
    }
  }
}

/** A hang is a difference too: it is logged, and the run moves on. */
async function withDeadline(run: Promise<void>, log: Log): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(() => {
      log.push(['hang']);
      resolve();
    }, 2_000);
  });
  await Promise.race([run, deadline]);
  clearTimeout(timer);
}

/** Log entries with every object or symbol replaced by a name: shared scenario values by role, others by first use. */
function normalize(log: Log, shared: Map<unknown, string>): unknown[] {
  const local = new Map<unknown, string>();
  const ref = (v: unknown): string => {
    const known = shared.get(v);
    if (known !== undefined) return known;
    if ((typeof v === 'object' && v !== null) || typeof v === 'function' || typeof v === 'symbol') {
      if (!local.has(v)) local.set(v, `local${local.size}`);
      return local.get(v)!;
    }
    if (Object.is(v, -0)) return 'number:-0';
    return `${typeof v}:${String(v)}`;
  };
  return log.map(([name, ...rest]) => [name, ...rest.map(ref)]);
}

/** The documented web-stream exception: a new stream object, pulled with extra hops. */
function comparable(entries: unknown[], s: Scenario): unknown[] {
  if (s.shape.kind !== 'webStream' || s.shape.inPromise) return entries;
  return entries
    .filter((e) => (e as string[])[0] !== 'tick' && (e as string[])[0] !== 'ownKeys')
    .map((e) =>
      (e as string[])[0] === 'returned' || (e as string[])[0] === 'resolved' ? [(e as string[])[0]] : e,
    );
}

interface BatchResult {
  differences: number;
  spanCountMismatches: number;
  examples: string[];
}

describe('transparency: instrumented tools behave exactly like bare tools (fast-check)', function () {
  this.timeout(heavy ? 900_000 : 90_000);
  let tracing: TestTracing;
  let tracer: Tracer;
  const tally = { cases: 0, runs: 0, differences: 0, spanCountMismatches: 0 };

  before(() => {
    tracing = createTestTracing({ spanProcessors: [new ToolErrorSpanProcessor()] });
    tracer = tracing.tracer;
  });
  after(async () => {
    console.log(
      `      transparency: ${tally.cases} cases, ${tally.runs} instrumented runs (seed ${SEED}), ` +
        `${tally.differences} behaviour differences, ${tally.spanCountMismatches} span-count mismatches`,
    );
    await tracing.shutdown();
  });

  /** Runs `invoke` in the given place; returns the number of tool spans the call left behind. */
  async function runIn(where: Where, invoke: () => unknown, s: Scenario, log: Log): Promise<number> {
    tracing.reset();
    let ctx: Context = context.active();
    const outer =
      where === 'framework'
        ? tracer.startSpan(`execute_tool ${TOOL_NAME}`, {
            attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': TOOL_NAME },
          })
        : where === 'parent'
          ? tracer.startSpan('agent')
          : undefined;
    if (outer) ctx = trace.setSpan(ctx, outer);
    const call = where === 'nested' ? () => traceToolCall(tracer, {}, { name: TOOL_NAME }, invoke) : invoke;
    await withDeadline(
      observe(() => context.with(ctx, call), s, log),
      log,
    );
    outer?.end();
    // Spans of watched promises and streams end in reactions that may run after the caller's.
    await new Promise((resolve) => setImmediate(resolve));
    return tracing.spans().filter((span) => span.name === `execute_tool ${TOOL_NAME}`).length;
  }

  /** One scenario: a bare run, then one through each wrapper, compared entry by entry. */
  async function check(s: Scenario, where: Where, result: BatchResult): Promise<void> {
    tally.cases++;
    const shared = sharedValues(s);
    const bareLog: Log = [];
    const bare = makeTool(s, bareLog);
    const bareUserCodeBefore = userCode.runs;
    await withDeadline(
      observe(() => bare.apply(s.thisArg, s.args), s, bareLog),
      bareLog,
    );
    bareLog.push(['user-code-runs', userCode.runs - bareUserCodeBefore]);
    const expected = comparable(normalize(bareLog, shared), s);

    const variants: [string, (log: Log) => () => unknown][] = [
      [
        'instrumentTool with capture on',
        (log) => {
          const wrapped = instrumentTool(makeTool(s, log), TOOL_NAME, {
            tracerProvider: tracing.provider,
            captureArguments: true,
            captureResults: true,
          });
          return () => wrapped.apply(s.thisArg, s.args);
        },
      ],
      [
        'instrumentTool',
        (log) => {
          const wrapped = instrumentTool(makeTool(s, log), TOOL_NAME, { tracerProvider: tracing.provider });
          return () => wrapped.apply(s.thisArg, s.args);
        },
      ],
      [
        'traceToolCall',
        (log) => {
          const tool = makeTool(s, log);
          return () =>
            traceToolCall(tracer, {}, { name: TOOL_NAME, args: s.args[0] }, () =>
              tool.apply(s.thisArg, s.args),
            );
        },
      ],
    ];
    for (const [label, make] of variants) {
      tally.runs++;
      const log: Log = [];
      const userCodeBefore = userCode.runs;
      const spans = await runIn(where, make(log), s, log);
      // Getters, toJSON and Proxy traps of returned values: the caller runs none.
      log.push(['user-code-runs', userCode.runs - userCodeBefore]);
      const actual = comparable(normalize(log, shared), s);
      if (JSON.stringify(actual) !== JSON.stringify(expected)) {
        tally.differences++;
        result.differences++;
        if (result.examples.length < 3) {
          result.examples.push(
            `${label} in ${where}, shape ${s.shape.kind}:\n  bare:         ${JSON.stringify(expected)}\n` +
              `  instrumented: ${JSON.stringify(actual)}`,
          );
        }
      }
      if (spans !== 1) {
        tally.spanCountMismatches++;
        result.spanCountMismatches++;
        if (result.examples.length < 3)
          result.examples.push(`${label} in ${where}, shape ${s.shape.kind}: ${spans} spans`);
      }
    }
  }

  async function runBatch(arbitrary: fc.Arbitrary<Scenario>, runs: number): Promise<BatchResult> {
    const result: BatchResult = { differences: 0, spanCountMismatches: 0, examples: [] };
    const cases = fc.sample(fc.tuple(arbitrary, fc.constantFrom(...PLACES)), { numRuns: runs, seed: SEED });
    for (const [s, where] of cases) await check(materialize(s), where, result);
    return result;
  }

  it('same values, errors, this, arguments and side-effect order, for every shape and context', async () => {
    const { differences, spanCountMismatches, examples } = await runBatch(scenario, heavy ? 50_000 : 10_000);
    expect({ differences, spanCountMismatches }, examples.join('\n\n')).to.deep.equal({
      differences: 0,
      spanCountMismatches: 0,
    });
  });

  // A query builder (knex, mongoose, drizzle, Prisma's PrismaPromise) runs its query each time
  // `then` is called. Calling `then` to watch the result runs the tool's work a second time.
  it('a lazy thenable (query builder) runs once, when the caller awaits it', async () => {
    const { differences, examples } = await runBatch(lazyThenableScenario, heavy ? 5_000 : 1_000);
    expect(differences, examples.join('\n\n')).to.equal(0);
  });

  it('keeps length, name, own properties, prototype and constructibility (fast-check)', () => {
    let runs = 0;
    fc.assert(
      fc.property(functionSpec, (spec) => {
        runs++;
        const fn = buildFunction(spec);
        const wrapped = instrumentTool(fn, TOOL_NAME, { tracerProvider: tracing.provider });
        expect(wrapped.length).to.equal(fn.length);
        expect(wrapped.name).to.equal(fn.name);
        // Frameworks tell tool kinds apart by it: VoltAgent streams a tool whose
        // `execute.constructor` is AsyncGeneratorFunction (@voltagent/core dist/index.js).
        expect(
          Object.getPrototypeOf(wrapped) === Object.getPrototypeOf(fn),
          `prototype of a ${spec.kind}`,
        ).to.equal(true);
        expect(Object.prototype.toString.call(wrapped)).to.equal(Object.prototype.toString.call(fn));
        expect('prototype' in wrapped).to.equal('prototype' in fn);
        expect((wrapped as { prototype?: unknown }).prototype).to.equal(
          (fn as { prototype?: unknown }).prototype,
        );
        const ownKeys = (f: object) => Reflect.ownKeys(f).filter((k) => !FUNCTION_KEYS.has(k));
        expect(ownKeys(wrapped)).to.deep.equal(ownKeys(fn));
        for (const key of ownKeys(fn)) {
          const a = Object.getOwnPropertyDescriptor(fn, key)!;
          const b = Object.getOwnPropertyDescriptor(wrapped, key)!;
          for (const field of ['value', 'get', 'set', 'writable', 'enumerable', 'configurable'] as const) {
            expect(Object.is(a[field], b[field]), `${String(key)}.${field}`).to.equal(true);
          }
        }
        if (spec.kind === 'class' || spec.kind === 'function' || spec.kind === 'bound') {
          const made = new (wrapped as unknown as new () => object)();
          const made0 = new (fn as unknown as new () => object)();
          expect(Object.getPrototypeOf(made)).to.equal(Object.getPrototypeOf(made0));
        }
      }),
      { numRuns: heavy ? 20_000 : 2_000 },
    );
    tally.cases += runs;
  });
});

describe('transparency: stream endings the caller chooses are not tool failures', () => {
  let tracing: TestTracing;
  before(() => {
    tracing = createTestTracing({ spanProcessors: [new ToolErrorSpanProcessor()] });
  });
  afterEach(() => tracing.reset());
  after(() => tracing.shutdown());

  async function* numbers(): AsyncGenerator<number> {
    for (let i = 0; ; i++) yield i;
  }

  async function stopAfterTwo(stream: AsyncIterable<unknown>): Promise<void> {
    let n = 0;
    for await (const _ of stream) if (++n === 2) break;
    await new Promise((resolve) => setImmediate(resolve));
  }

  it('an async generator the consumer stops early ends its span unmarked', async () => {
    await stopAfterTwo(traceToolCall(tracing.tracer, {}, { name: 'gen' }, () => numbers()));
    expect(tracing.span('execute_tool gen').status.code).to.equal(SpanStatusCode.UNSET);
  });

  it('a web ReadableStream the consumer cancels ends its span unmarked', async () => {
    let next = 0;
    const endless = () => new ReadableStream<number>({ pull: (controller) => controller.enqueue(next++) });
    const stream = traceToolCall(tracing.tracer, {}, { name: 'web' }, endless);
    const reader = stream.getReader();
    await reader.read();
    await reader.cancel('enough');
    await new Promise((resolve) => setImmediate(resolve));
    expect(tracing.span('execute_tool web').status.code).to.equal(SpanStatusCode.UNSET);
  });

  // Breaking out of `for await` destroys a Node Readable with an AbortError the consumer caused.
  it('a Node Readable the consumer stops early ends its span unmarked', async () => {
    await stopAfterTwo(traceToolCall(tracing.tracer, {}, { name: 'node' }, () => Readable.from(numbers())));
    const span = tracing.span('execute_tool node');
    expect(span.attributes['error.type'], JSON.stringify(span.status)).to.equal(undefined);
    expect(span.status.code).to.equal(SpanStatusCode.UNSET);
  });
});
