import { expect } from 'chai';
import Bluebird from 'bluebird';
import fc from 'fast-check';
import { instrumentTool } from '../../src/instrumentation/instrument-tool';
import { traceToolCall } from '../../src/instrumentation/tool-call/trace-tool-call';
import { createTestTracing, type TestTracing } from '../helpers/tracing';

type Mode = 'returns' | 'throws' | 'resolves' | 'rejects';

/** A bare tool that does `mode` with `value`. */
function bareTool(mode: Mode, value: unknown): () => unknown {
  switch (mode) {
    case 'returns':
      return () => value;
    case 'throws':
      return () => {
        throw value;
      };
    case 'resolves':
      return () => Promise.resolve(value);
    case 'rejects':
      return () => Promise.reject(value);
  }
}

type Outcome = { kind: 'returned' | 'threw'; value: unknown };

function outcomeOf(run: () => unknown): Outcome {
  try {
    return { kind: 'returned', value: run() };
  } catch (err) {
    return { kind: 'threw', value: err };
  }
}

/**
 * Resolves once `seen` has a report, or after 5 s without one. A fixed wait is not enough: on a
 * loaded machine the loop can run Bluebird's check (a 1 ms timer set at the rejection) after it.
 */
async function reported(seen: readonly unknown[]): Promise<void> {
  const deadline = Date.now() + 5000;
  while (seen.length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 1));
}

async function settled(promise: Promise<unknown>): Promise<Outcome> {
  try {
    return { kind: 'returned', value: await promise };
  } catch (err) {
    return { kind: 'threw', value: err };
  }
}

describe('the wrapper is transparent (fast-check)', () => {
  let tracing: TestTracing;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);

  before(() => {
    tracing = createTestTracing();
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(() => tracing.reset());
  after(async () => {
    process.off('unhandledRejection', onUnhandled);
    await tracing.shutdown();
  });

  it('returns and throws exactly what the bare tool does, synchronously or as the same promise', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom<Mode>('returns', 'throws', 'resolves', 'rejects'),
        fc.anything(),
        async (mode, value) => {
          const tool = bareTool(mode, value);
          const bare = outcomeOf(tool);
          // A fresh promise per run: the traced call must hand back the one the tool made.
          let made: unknown;
          const traced = outcomeOf(() =>
            traceToolCall(tracing.tracer, {}, { name: 'prop' }, () => {
              made = tool();
              return made;
            }),
          );
          expect(traced.kind).to.equal(bare.kind);
          if (mode === 'returns' || mode === 'throws') {
            expect(Object.is(traced.value, value)).to.equal(true);
            return;
          }
          expect(traced.value).to.equal(made);
          const [bareSettled, tracedSettled] = await Promise.all([
            settled(bare.value as Promise<unknown>),
            settled(traced.value as Promise<unknown>),
          ]);
          expect(tracedSettled.kind).to.equal(bareSettled.kind);
          expect(Object.is(tracedSettled.value, value)).to.equal(true);
        },
      ),
      { numRuns: 300 },
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled, 'the wrapper added no unhandled rejection').to.deep.equal([]);
    expect(tracing.spans().every((span) => span.name === 'execute_tool prop')).to.equal(true);
  });

  // A promise the caller drops: `unhandledRejection` must see the same reason and the same promise,
  // once, as without the wrapper (Bluebird emits it itself, a millisecond after the rejection).
  // Mocha's own listener is set aside meanwhile (it fails the run).
  it('a dropped promise that rejects raises the same unhandledRejection as the bare tool', async () => {
    const mochaListeners = process.listeners('unhandledRejection');
    process.removeAllListeners('unhandledRejection');
    const seen: [unknown, unknown][] = [];
    const record = (reason: unknown, promise: unknown) => seen.push([reason, promise]);
    process.on('unhandledRejection', record);
    let runs = 0;
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(
            'async',
            'executor',
            'timer',
            'caught',
            'bluebird',
            'bluebird-timer',
            'bluebird-caught',
          ),
          fc.anything(),
          async (how, reason) => {
            runs++;
            const tool = (): PromiseLike<never> & { catch(onRejected: () => void): unknown } => {
              switch (how) {
                case 'bluebird':
                  return Bluebird.reject(reason as Error);
                case 'bluebird-timer':
                case 'bluebird-caught':
                  return new Bluebird<never>((_, reject) => setTimeout(() => reject(reason), 0));
                case 'async':
                  return (async () => {
                    await null;
                    throw reason;
                  })();
                case 'executor':
                  return Promise.reject(reason as Error);
                case 'timer':
                  return new Promise((_, reject) => setTimeout(() => reject(reason), 0));
                default:
                  return new Promise<never>((_, reject) => setImmediate(() => reject(reason)));
              }
            };
            const outcomes: string[] = [];
            for (const run of [tool, () => traceToolCall(tracing.tracer, {}, { name: 'dropped' }, tool)]) {
              seen.length = 0;
              const returned = run();
              if (how.endsWith('caught')) await returned.catch(() => undefined);
              else await reported(seen);
              // Anything else the rejection sets off (a second report, Bluebird's check a millisecond
              // later) was scheduled before this timer, so it is due first, however late the loop runs.
              await new Promise((resolve) => setTimeout(resolve, 5));
              await new Promise((resolve) => setImmediate(resolve));
              outcomes.push(JSON.stringify(seen.map(([r, p]) => [Object.is(r, reason), p === returned])));
            }
            expect(outcomes[1], how).to.equal(outcomes[0]);
            expect(outcomes[0]).to.equal(how.endsWith('caught') ? '[]' : '[[true,true]]');
          },
        ),
        { numRuns: 200 },
      );
    } finally {
      process.off('unhandledRejection', record);
      for (const listener of mochaListeners) process.on('unhandledRejection', listener);
    }
    expect(runs).to.equal(200);
  });

  it('instrumentTool keeps this, arguments, length, name and own properties', async () => {
    const kinds = ['function', 'arrow', 'async', 'method'] as const;
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...kinds),
        fc.array(fc.anything(), { maxLength: 4 }),
        fc.dictionary(
          fc.string().filter((k) => !['length', 'name', 'prototype', 'caller', 'arguments'].includes(k)),
          fc.anything(),
          {
            maxKeys: 3,
          },
        ),
        fc.integer({ min: 0, max: 3 }),
        async (kind, args, props, arity) => {
          const seen: { self?: unknown; args?: unknown[] } = {};
          const record = (self: unknown, callArgs: unknown[]) => {
            seen.self = self;
            seen.args = callArgs;
            return callArgs.length;
          };
          const makers = {
            function: () =>
              function named(this: unknown, ...a: unknown[]) {
                return record(this, a);
              },
            arrow:
              () =>
              (...a: unknown[]) =>
                record(undefined, a),
            async: () =>
              async function asyncNamed(this: unknown, ...a: unknown[]) {
                return record(this, a);
              },
            method: () =>
              ({
                m(this: unknown, ...a: unknown[]) {
                  return record(this, a);
                },
              }).m,
          };
          const fn = makers[kind]() as (...a: unknown[]) => unknown;
          Object.defineProperty(fn, 'length', { value: arity });
          Object.assign(fn, props);
          const wrapped = instrumentTool(fn, 'prop_tool', { tracerProvider: tracing.provider });

          expect(wrapped.length).to.equal(fn.length);
          expect(wrapped.name).to.equal(fn.name);
          expect('prototype' in wrapped).to.equal('prototype' in fn);
          for (const key of Object.keys(props)) {
            expect(Object.getOwnPropertyDescriptor(wrapped, key)).to.deep.equal(
              Object.getOwnPropertyDescriptor(fn, key),
            );
          }
          const self = { tag: 'receiver' };
          const result = Reflect.apply(wrapped, self, args);
          const value = kind === 'async' ? await result : result;
          expect(value).to.equal(args.length);
          expect(seen.args).to.have.length(args.length);
          seen.args!.forEach((arg, i) => expect(Object.is(arg, args[i])).to.equal(true));
          if (kind !== 'arrow') expect(seen.self).to.equal(self);
          expect(kind === 'async' ? result instanceof Promise : !(result instanceof Promise)).to.equal(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('instrumentTool makes one classified execute_tool span a call, with opt-in argument capture', async () => {
    const lookup = instrumentTool(
      async (input: { city: string; token: string }) => {
        throw Object.assign(new Error(`no weather for ${input.city}`), { status: 404 });
      },
      { name: 'weather', description: 'Looks up the weather' },
      { tracerProvider: tracing.provider, captureArguments: true },
    );
    const err = await lookup({ city: 'Paris', token: 'secret-value' }).catch((e: unknown) => e);
    expect((err as Error).message).to.equal('no weather for Paris');
    const span = tracing.span('execute_tool weather');
    expect(span.attributes).to.include({
      'gen_ai.tool.description': 'Looks up the weather',
      'gen_ai.tool.call.arguments': '{"city":"Paris","token":"[REDACTED]"}',
      'error.type': '404',
      'tool.error_kind': 'permanent',
    });
  });

  it('instrumentTool rejects what it cannot wrap, with a clear message', () => {
    expect(() => instrumentTool(42 as unknown as () => void, 'x')).to.throw(TypeError, /expected a function/);
    expect(() => instrumentTool(() => 1, '')).to.throw(TypeError, /non-empty name/);
  });
});
