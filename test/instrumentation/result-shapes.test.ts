import { runInNewContext } from 'node:vm';
import { SpanStatusCode } from '@opentelemetry/api';
import Bluebird from 'bluebird';
import { expect } from 'chai';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import got from 'got';
import OpenAI from 'openai';
import superagent from 'superagent';
import { classifyToolError, classifyToolResult } from '../../src';
import { instrumentTool } from '../../src/instrumentation/instrument-tool';
import { traceToolCall } from '../../src/instrumentation/tool-call/trace-tool-call';
import { useTestBed } from '../helpers/test-bed';

/**
 * Results that real libraries return, and what the wrapper must leave as it is: got's
 * `PCancelable`, Bluebird, superagent's lazy requests, Promise subclasses, errors from another realm, shared generators,
 * getters and `toJSON`, bound functions, a nested failure the outer call recovered from.
 */

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('results the wrapper watches without changing them', () => {
  const bed = useTestBed();

  /** Once the event loop has turned: the span ended failed, with this `error.type`. */
  async function expectFailedSpan(name: string, errorType: string): Promise<void> {
    await settle();
    const span = bed.tracing.span(name);
    expect(span.status.code).to.equal(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).to.equal(errorType);
  }

  describe('thenables', () => {
    it("got 14's PCancelable that fails with 500: a failed span, its cancel() and on() kept", async () => {
      let made: ReturnType<typeof got> | undefined;
      const returned = traceToolCall(
        bed.tracer,
        {},
        { name: 'got_tool' },
        () => (made = got(`${bed.server.url}/500`)),
      );
      expect(returned).to.equal(made);
      expect(returned.constructor.name).to.equal('PCancelable');
      expect(typeof returned.cancel).to.equal('function');
      expect(typeof returned.on).to.equal('function');
      expect(Object.keys(returned).sort()).to.deep.equal(Object.keys(got(`${bed.server.url}/ok`)).sort());
      const err = await returned.catch((e: unknown) => e);
      expect((err as { name?: string }).name).to.equal('HTTPError');
      await expectFailedSpan('execute_tool got_tool', '500');
    });

    it('a PCancelable the caller cancels is still cancelable and rejects with its CancelError', async () => {
      const returned = traceToolCall(bed.tracer, {}, { name: 'got_cancel' }, () =>
        got(`${bed.server.url}/hang`),
      );
      returned.cancel();
      const err = await returned.catch((e: unknown) => e);
      expect((err as { name?: string }).name).to.equal('CancelError');
      expect(returned.isCanceled).to.equal(true);
    });

    it('Bluebird: a failed span when it rejects, the same object with its own methods', async () => {
      const boom = Object.assign(new Error('upstream'), { status: 503 });
      let made: Bluebird<never> | undefined;
      const returned = traceToolCall(
        bed.tracer,
        {},
        { name: 'bluebird' },
        () => (made = Bluebird.reject(boom)),
      );
      expect(returned).to.equal(made);
      expect(Object.keys(returned)).to.deep.equal(Object.keys(Bluebird.resolve(1)));
      expect(await returned.reflect().then((i) => i.isRejected())).to.equal(true);
      expect(returned.reason()).to.equal(boom);
      await settle();
      expect(bed.tracing.span('execute_tool bluebird').attributes['error.type']).to.equal('503');
    });

    describe('Bluebird, observed when its caller reacts', () => {
      const boom = Object.assign(new Error('upstream'), { status: 503 });
      /** Rejects once the event loop has turned twice: pending when the caller reacts. */
      const rejectingLater = () =>
        new Bluebird<never>((_, reject) => setImmediate(() => setImmediate(() => reject(boom))));
      const call = (name: string, run: () => Bluebird<unknown>) =>
        traceToolCall(bed.tracer, {}, { name }, run) as Bluebird<unknown>;

      const sources = [
        ['', rejectingLater],
        [
          ', when the tool returns a promise that follows another',
          () => new Bluebird((resolve) => resolve(rejectingLater())),
        ],
      ] as const;
      const reactions = [
        ['await', async (p: Bluebird<unknown>) => p],
        ['catch', (p: Bluebird<unknown>) => p.catch((e: unknown) => Promise.reject(e))],
        ['finally', (p: Bluebird<unknown>) => p.finally(() => undefined)],
        ['Bluebird.all', (p: Bluebird<unknown>) => Bluebird.all([p])],
        ['a promise that adopts it', (p: Bluebird<unknown>) => new Bluebird((resolve) => resolve(p))],
      ] as const;
      for (const [how, react] of reactions) {
        for (const [returns, run] of sources) {
          it(`${how}${returns}: the caller gets the same error, the span its classification`, async () => {
            const returned = call('bluebird_pending', run);
            const err = await Promise.resolve(react(returned)).then(
              () => undefined,
              (e: unknown) => e,
            );
            expect(err).to.equal(boom);
            await expectFailedSpan('execute_tool bluebird_pending', '503');
          });
        }
      }

      it('fulfilled: an OK span, the same value', async () => {
        const value = { temperature: 21 };
        expect(await call('bluebird_ok', () => Bluebird.delay(1).then(() => value))).to.equal(value);
        await settle();
        expect(bed.tracing.span('execute_tool bluebird_ok').status.code).to.equal(SpanStatusCode.UNSET);
      });

      it("already fulfilled when returned: read at once, Bluebird's methods left as they are", async () => {
        // A copy of the library has a prototype of its own, which no earlier test has wrapped.
        const Copy = Bluebird.getNewLibraryCopy();
        const { _addCallbacks } = Copy.prototype as unknown as Record<string, unknown>;
        const value = { temperature: 21 };
        expect(await call('bluebird_resolved', () => Copy.resolve(value))).to.equal(value);
        await settle();
        expect(bed.tracing.span('execute_tool bluebird_resolved').status.code).to.equal(SpanStatusCode.UNSET);
        expect((Copy.prototype as unknown as Record<string, unknown>)._addCallbacks).to.equal(_addCallbacks);
      });

      it("nobody reacts by the next turn: the span ends then; a rejection stays Bluebird's to report", async () => {
        const rejected = call('bluebird_dropped', () => Bluebird.reject(boom));
        // What an app that means to drop it does; it reacts to nothing, so Bluebird reports nothing here.
        rejected.suppressUnhandledRejections();
        await settle();
        const span = bed.tracing.span('execute_tool bluebird_dropped');
        expect([span.status.code, span.attributes['error.type']]).to.deep.equal([
          SpanStatusCode.ERROR,
          '_OTHER',
        ]);
        expect(rejected.isRejected()).to.equal(true);

        const pending = call('bluebird_late', rejectingLater);
        await settle();
        // Pending, and nobody has reacted: the span ends without the outcome.
        expect(bed.tracing.span('execute_tool bluebird_late').status.code).to.equal(SpanStatusCode.UNSET);
        expect(await pending.catch((e: unknown) => e)).to.equal(boom);
      });
    });

    it('a Promise subclass: a failed span, its own then never called by the wrapper', async () => {
      let thenCalls = 0;
      class Tracked<T> extends Promise<T> {
        override then<A = T, B = never>(
          onFulfilled?: ((value: T) => A | PromiseLike<A>) | null,
          onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
        ): Promise<A | B> {
          thenCalls++;
          return super.then(onFulfilled, onRejected);
        }
      }
      const boom = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
      const returned = traceToolCall(
        bed.tracer,
        {},
        { name: 'subclass' },
        () => Tracked.reject(boom) as Tracked<never>,
      );
      expect(thenCalls).to.equal(0);
      expect(returned).to.be.instanceOf(Tracked);
      expect(await returned.then(undefined, (e: unknown) => e)).to.equal(boom);
      await settle();
      expect(bed.tracing.span('execute_tool subclass').attributes['error.type']).to.equal('ECONNREFUSED');
    });
  });

  describe("lazy thenables: superagent's request, sent when its caller calls then", () => {
    it('a request that fails with 503: sent once, when awaited; a failed span; the same object', async () => {
      let made: superagent.SuperAgentRequest | undefined;
      const before = bed.server.requestCount();
      const returned = traceToolCall(
        bed.tracer,
        {},
        { name: 'superagent_tool' },
        () => (made = superagent.get(`${bed.server.url}/503`)),
      );
      expect(returned).to.equal(made);
      expect(Object.prototype.hasOwnProperty.call(returned, 'then')).to.equal(false);
      const err = await returned.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect((err as { status?: number }).status).to.equal(503);
      expect(bed.server.requestCount(), 'sent once').to.equal(before + 1);
      await expectFailedSpan('execute_tool superagent_tool', '503');
    });

    it('a request that succeeds ends its span OK when the response arrives', async () => {
      const returned = traceToolCall(bed.tracer, {}, { name: 'superagent_ok' }, () =>
        superagent.get(`${bed.server.url}/ok`),
      );
      const response = await returned;
      expect(response.status).to.equal(200);
      await settle();
      const span = bed.tracing.span('execute_tool superagent_ok');
      expect(span.status.code).to.equal(SpanStatusCode.UNSET);
      expect(span.attributes['error.type']).to.equal(undefined);
    });

    it('a request nobody awaits is never sent, and its span ends on the next turn', async () => {
      const before = bed.server.requestCount();
      traceToolCall(bed.tracer, {}, { name: 'superagent_dropped' }, () =>
        superagent.get(`${bed.server.url}/500`),
      );
      await settle();
      await settle();
      expect(bed.server.requestCount()).to.equal(before);
      expect(bed.tracing.span('execute_tool superagent_dropped').status.code).to.equal(SpanStatusCode.UNSET);
    });

    it('a request the caller catches with .catch() (which calls then) still marks the span', async () => {
      const returned = traceToolCall(bed.tracer, {}, { name: 'superagent_catch' }, () =>
        superagent.get(`${bed.server.url}/500`),
      );
      const err = await returned.catch((e: unknown) => e);
      expect((err as { status?: number }).status).to.equal(500);
      await settle();
      expect(bed.tracing.span('execute_tool superagent_catch').attributes['error.type']).to.equal('500');
    });
  });

  describe("a class's async iterable: the OpenAI SDK's Stream", () => {
    // Chat completion chunks over server-sent events; `?fail` ends the stream with an error event.
    let sse: Server;
    let client: OpenAI;
    before(async () => {
      sse = createServer((req, res) => {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const chunk = (content: string) =>
          `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content } }] })}\n\n`;
        res.write(chunk('one'));
        res.write(chunk('two'));
        if (req.url?.includes('fail'))
          res.end(`data: ${JSON.stringify({ error: { message: 'overloaded', type: 'server_error' } })}\n\n`);
        else res.end('data: [DONE]\n\n');
      });
      await new Promise<void>((resolve) => sse.listen(0, '127.0.0.1', resolve));
      client = new OpenAI({
        apiKey: 'test',
        baseURL: `http://127.0.0.1:${(sse.address() as AddressInfo).port}/v1`,
        maxRetries: 0,
      });
    });
    after(() => new Promise((resolve) => sse.close(resolve)));

    const streamTool = (name: string, query: string) =>
      instrumentTool(
        async () =>
          client.chat.completions.create(
            { model: 'm', messages: [{ role: 'user', content: 'hi' }], stream: true },
            { query: query ? { [query]: '1' } : undefined },
          ),
        name,
        { tracerProvider: bed.tracing.provider },
      );

    it('a stream that fails midway: the chunks before it, the same error, a failed span', async () => {
      const stream = await streamTool('stream_fail', 'fail')();
      expect(Object.getOwnPropertySymbols(stream)).to.deep.equal([]);
      const seen: string[] = [];
      const err = await (async () => {
        for await (const chunk of stream) seen.push(chunk.choices[0]!.delta.content!);
      })().catch((e: unknown) => e);
      expect(seen).to.deep.equal(['one', 'two']);
      expect(err).to.be.instanceOf(OpenAI.APIError);
      await expectFailedSpan('execute_tool stream_fail', 'APIError');
    });

    it('a stream read to its end ends its span OK then, not when the call returns', async () => {
      const stream = await streamTool('stream_ok', '')();
      const seen: string[] = [];
      for await (const chunk of stream) {
        expect(bed.tracing.spans().some((s) => s.name === 'execute_tool stream_ok')).to.equal(false);
        seen.push(chunk.choices[0]!.delta.content!);
      }
      expect(seen).to.deep.equal(['one', 'two']);
      await settle();
      expect(bed.tracing.span('execute_tool stream_ok').status.code).to.equal(SpanStatusCode.UNSET);
    });
  });

  describe('errors from another realm (vm context)', () => {
    const foreign = (source: string): unknown => runInNewContext(source);

    it('are recognised by brand in a returned { error } result', () => {
      const err = foreign(`new Error('lookup failed')`);
      expect(err instanceof Error).to.equal(false);
      expect(classifyToolResult({ error: err })?.kind).to.equal('tool_error');
      const refused = foreign(`Object.assign(new Error('connect failed'), { code: 'ECONNREFUSED' })`);
      expect(classifyToolResult({ error: refused })).to.include({
        errorType: 'ECONNREFUSED',
        kind: 'network',
      });
      expect(classifyToolError(refused)).to.include({ errorType: 'ECONNREFUSED', kind: 'network' });
    });

    it('mark the span of a tool that returns one', async () => {
      const tool = instrumentTool(() => ({ error: foreign(`new TypeError('bad input')`) }), 'realm', {
        tracerProvider: bed.tracing.provider,
      });
      tool();
      await settle();
      expect(bed.tracing.span('execute_tool realm').status.code).to.equal(SpanStatusCode.ERROR);
    });
  });

  describe('returned objects', () => {
    async function* chunks(): AsyncGenerator<number> {
      yield 1;
      yield 2;
    }

    it('an async generator gets no own property and keeps its identity', async () => {
      const generator = chunks();
      const returned = traceToolCall(bed.tracer, {}, { name: 'gen' }, () => generator);
      expect(returned).to.equal(generator);
      expect(Reflect.ownKeys(returned)).to.deep.equal([]);
      const seen: number[] = [];
      for await (const n of returned) seen.push(n);
      expect(seen).to.deep.equal([1, 2]);
      expect(Reflect.ownKeys(returned)).to.deep.equal([]);
    });

    // Before: every call wrapped the generator's methods once more, so each step went through one
    // more layer per earlier call, until a RangeError.
    it('a shared generator returned by 10,000 calls: a step goes through as many frames as on call 1', async () => {
      let framesInside = 0;
      async function* measured(): AsyncGenerator<number> {
        for (;;) {
          framesInside = new Error().stack!.split('\n').length;
          yield 1;
        }
      }
      const limit = Error.stackTraceLimit;
      Error.stackTraceLimit = Infinity;
      try {
        const shared = measured();
        const tool = instrumentTool(() => shared, 'shared_gen', { tracerProvider: bed.tracing.provider });
        const first = tool();
        await first.next();
        await first.next();
        const afterOne = framesInside;
        for (let i = 0; i < 10_000; i++) tool();
        expect(await tool().next()).to.deep.equal({ value: 1, done: false });
        expect(framesInside).to.equal(afterOne);
        expect(Reflect.ownKeys(shared)).to.deep.equal([]);
      } finally {
        Error.stackTraceLimit = limit;
        bed.tracing.reset();
      }
    });

    it('a shared async iterable gets no own property either', async () => {
      const iterable = {
        async *[Symbol.asyncIterator]() {
          yield 'x';
        },
      };
      const before = Reflect.ownKeys(iterable).map((k) => [k, Object.getOwnPropertyDescriptor(iterable, k)]);
      for (let i = 0; i < 3; i++) traceToolCall(bed.tracer, {}, { name: 'iterable' }, () => iterable);
      const after = Reflect.ownKeys(iterable).map((k) => [k, Object.getOwnPropertyDescriptor(iterable, k)]);
      expect(after).to.deep.equal(before);
    });

    it('capture runs no getter, toJSON or Proxy trap of a returned object', async () => {
      const ran: string[] = [];
      class Result {
        city = 'Paris';
        get expensive(): string {
          ran.push('getter');
          return 'computed';
        }
        toJSON(): unknown {
          ran.push('toJSON');
          return { replaced: true };
        }
      }
      const result = new Result();
      Object.defineProperty(result, 'ownGetter', {
        enumerable: true,
        get: () => {
          ran.push('own getter');
          return 1;
        },
      });
      const proxy = new Proxy({}, { get: () => ran.push('trap'), ownKeys: () => (ran.push('ownKeys'), []) });
      const tool = instrumentTool(() => ({ result, proxy, when: new Date(0) }), 'capture', {
        tracerProvider: bed.tracing.provider,
        captureResults: true,
      });
      tool();
      await settle();
      expect(ran).to.deep.equal([]);
      expect(
        JSON.parse(bed.tracing.span('execute_tool capture').attributes['gen_ai.tool.call.result'] as string),
      ).to.deep.equal({
        result: { city: 'Paris', ownGetter: '[getter]' },
        proxy: '[Proxy]',
        when: '1970-01-01T00:00:00.000Z',
      });
    });

    it('result detection runs no getter of a returned object (capture off)', async () => {
      const ran: string[] = [];
      const result = {};
      for (const key of ['type', 'isError', 'error', 'success', 'status']) {
        Object.defineProperty(result, key, { enumerable: true, get: () => ran.push(key) });
      }
      instrumentTool(() => result, 'no_getters', { tracerProvider: bed.tracing.provider })();
      await settle();
      expect(ran).to.deep.equal([]);
    });
  });

  describe('functions', () => {
    it('a wrapped bound function can be called with new', () => {
      class Point {
        constructor(
          readonly x: number,
          readonly y: number,
        ) {}
      }
      const Bound = Point.bind(null, 1) as unknown as new (y: number) => Point;
      const Wrapped = instrumentTool(
        Bound as unknown as (y: number) => Point,
        'point',
      ) as unknown as typeof Bound;
      const made = new Wrapped(2);
      expect(made).to.be.instanceOf(Point);
      expect([made.x, made.y]).to.deep.equal([1, 2]);
      expect('prototype' in Wrapped).to.equal(false);
    });

    /**
     * An instrumented tool `name` whose body calls an instrumented inner tool of the same name that
     * throws a 503, and answers that failure with `onInnerFailure`.
     */
    function nestedTool(name: string, onInnerFailure: () => string) {
      const options = { tracerProvider: bed.tracing.provider };
      const inner = instrumentTool(
        async () => {
          throw Object.assign(new Error('first try'), { status: 503 });
        },
        name,
        options,
      );
      return instrumentTool(() => inner().catch(onInnerFailure), name, options);
    }

    it('a nested failure of the same tool that the outer call recovered from leaves the span unmarked', async () => {
      const outer = nestedTool('search', () => 'from cache');
      expect(await outer()).to.equal('from cache');
      await settle();
      const span = bed.tracing.span('execute_tool search');
      expect(span.status.code).to.equal(SpanStatusCode.UNSET);
      expect(span.attributes['error.type']).to.equal(undefined);
    });

    it('a nested failure the outer call passes on still marks the span with the stronger evidence', async () => {
      const outer = nestedTool('search2', () => {
        throw new Error('search failed');
      });
      await outer().catch(() => undefined);
      await settle();
      expect(bed.tracing.span('execute_tool search2').attributes['error.type']).to.equal('503');
    });
  });
});
