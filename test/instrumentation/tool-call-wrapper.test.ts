import { addAbortSignal, Readable } from 'node:stream';
import { SpanKind, SpanStatusCode, context, trace, type Span, type Tracer } from '@opentelemetry/api';
import { expect } from 'chai';
import { ToolExecutionError } from '../../src/errors';
import { recordToolError, traceToolCall } from '../../src/instrumentation/tool-call/trace-tool-call';
import { refusedPort } from '../helpers/flaky-server';
import { useTestBed } from '../helpers/test-bed';
import { mark, markOf } from '../helpers/tool-failures';

/** A typical hand-written HTTP tool: fetch, and throw with the response as the cause when not ok. */
async function callApi(url: string, signal?: AbortSignal): Promise<unknown> {
  const res = await fetch(url, { signal });
  if (!res.ok) throw new Error(`GET ${new URL(url).pathname} failed`, { cause: res });
  return res.json();
}

describe('traceToolCall', () => {
  const bed = useTestBed();

  function inParent<T>(fn: () => T): { result: T; parent: Span } {
    const parent = bed.tracer.startSpan('agent');
    const result = context.with(trace.setSpan(context.active(), parent), fn);
    parent.end();
    return { result, parent };
  }

  describe('spans', () => {
    it('starts an INTERNAL execute_tool span under the active span, with the GenAI attributes', () => {
      const value = { temperature: 21 };
      const { result, parent } = inParent(() =>
        traceToolCall(
          bed.tracer,
          {},
          { name: 'weather', callId: 'call-1', description: 'Current weather', type: 'function' },
          () => value,
        ),
      );
      expect(result).to.equal(value);
      const span = bed.tracing.span('execute_tool weather');
      expect(span.kind).to.equal(SpanKind.INTERNAL);
      expect(span.parentSpanContext?.spanId).to.equal(parent.spanContext().spanId);
      expect(span.attributes).to.deep.equal({
        'gen_ai.operation.name': 'execute_tool',
        'gen_ai.tool.name': 'weather',
        'gen_ai.tool.call.id': 'call-1',
        'gen_ai.tool.description': 'Current weather',
        'gen_ai.tool.type': 'function',
      });
      expect(span.status.code).to.equal(SpanStatusCode.UNSET);
    });

    it('makes its span the active span while the tool runs', () => {
      let inner: Span | undefined;
      traceToolCall(bed.tracer, {}, { name: 'probe' }, () => {
        inner = trace.getActiveSpan();
      });
      expect(inner?.spanContext().spanId).to.equal(
        bed.tracing.span('execute_tool probe').spanContext().spanId,
      );
    });
  });

  describe('thrown errors', () => {
    it('keeps a synchronous throw synchronous, with the same error object, and classifies it', () => {
      const thrown = new TypeError('cannot read x of undefined');
      let caught: unknown;
      try {
        traceToolCall(bed.tracer, {}, { name: 'sync' }, () => {
          throw thrown;
        });
      } catch (err) {
        caught = err;
      }
      expect(caught).to.equal(thrown);
      const span = bed.tracing.span('execute_tool sync');
      expect(markOf(span)).to.deep.equal(mark('TypeError', 'internal', false));
      expect(span.status.message).to.equal('cannot read x of undefined');
      expect(span.events.filter((e) => e.name === 'exception')).to.have.length(1);
    });

    const statuses: Array<[string, string, string, boolean]> = [
      ['/500', '500', 'transient', true],
      ['/503', '503', 'transient', true],
      ['/404', '404', 'permanent', false],
      ['/401', '401', 'auth', false],
      ['/429?retryAfter=1', '429', 'rate_limit', true],
      ['/429', '429', 'quota', false],
    ];
    for (const [route, type, kind, retryable] of statuses) {
      it(`classifies a real HTTP ${route} answer as ${kind}`, async () => {
        const promise = traceToolCall(bed.tracer, {}, { name: 'api' }, () => callApi(bed.server.url + route));
        const caught = await promise.then(
          () => undefined,
          (err: unknown) => err,
        );
        expect(caught).to.be.instanceOf(Error);
        const span = bed.tracing.span('execute_tool api');
        expect(markOf(span)).to.deep.equal(mark(type, kind, retryable));
      });
    }

    it('returns the very promise the tool returned', async () => {
      const original = Promise.resolve(42);
      const returned = traceToolCall(bed.tracer, {}, { name: 'same' }, () => original);
      expect(returned).to.equal(original);
      expect(await returned).to.equal(42);
    });

    it('classifies an AbortSignal.timeout on a server that never answers as timeout', async () => {
      const err = await traceToolCall(bed.tracer, {}, { name: 'slow' }, () =>
        callApi(`${bed.server.url}/hang`, AbortSignal.timeout(50)),
      ).catch((e: unknown) => e);
      expect((err as Error).name).to.equal('TimeoutError');
      expect(markOf(bed.tracing.span('execute_tool slow'))).to.include({
        type: 'timeout',
        kind: 'timeout',
      });
    });

    it('classifies a refused connection as network ECONNREFUSED', async () => {
      const port = await refusedPort();
      await traceToolCall(bed.tracer, {}, { name: 'down' }, () => callApi(`http://127.0.0.1:${port}/`)).catch(
        () => undefined,
      );
      expect(markOf(bed.tracing.span('execute_tool down'))).to.include({
        type: 'ECONNREFUSED',
        kind: 'network',
        retryable: true,
      });
    });

    it('records a redacted copy in the exception event, with the exception.type the SDK gives the error', () => {
      const thrown = Object.assign(new Error('login refused for Bearer abcdefghijklmnop'), {
        code: 'E_AUTH',
      });
      expect(() =>
        traceToolCall(bed.tracer, {}, { name: 'login' }, () => {
          throw thrown;
        }),
      ).to.throw(Error);
      const [event] = bed.tracing.span('execute_tool login').events.filter((e) => e.name === 'exception');
      expect(event?.attributes).to.include({
        'exception.type': 'E_AUTH',
        'exception.message': 'login refused for Bearer [REDACTED]',
      });
      const stack = String(event?.attributes?.['exception.stacktrace']);
      expect(stack).to.match(/^Error: login refused for Bearer \[REDACTED\]\n\s+at /);
      expect(stack).not.to.include('abcdefghijklmnop');
      // The thrown error itself is untouched.
      expect(thrown.message).to.equal('login refused for Bearer abcdefghijklmnop');
    });

    it('records thrown non-Error values without failing', () => {
      expect(() =>
        traceToolCall(bed.tracer, {}, { name: 'odd' }, () => {
          throw 7;
        }),
      ).to.throw();
      const span = bed.tracing.span('execute_tool odd');
      expect(span.status.code).to.equal(SpanStatusCode.ERROR);
      expect(span.events.filter((e) => e.name === 'exception')).to.have.length(1);
    });
  });

  describe('returned errors', () => {
    it('marks an MCP-style isError result as tool_error without an exception event', () => {
      const result = { isError: true, content: [{ type: 'text', text: 'the file is locked' }] };
      expect(traceToolCall(bed.tracer, {}, { name: 'files' }, () => result)).to.equal(result);
      const span = bed.tracing.span('execute_tool files');
      expect(markOf(span)).to.deep.equal(mark('tool_error', 'tool_error', false));
      expect(span.events).to.have.length(0);
    });

    it('uses the per-framework classifyResult when given', async () => {
      await traceToolCall(bed.tracer, {}, { name: 'custom' }, async () => 'ERR: quota exceeded', {
        classifyResult: (r) =>
          typeof r === 'string' && r.startsWith('ERR')
            ? {
                errorType: 'tool_error',
                kind: 'quota',
                retryable: false,
                executed: true,
                evidence: 'result',
              }
            : undefined,
      });
      expect(markOf(bed.tracing.span('execute_tool custom'))).to.include({ kind: 'quota' });
    });

    it('leaves successful results unmarked', async () => {
      await traceToolCall(bed.tracer, {}, { name: 'fine' }, () => callApi(`${bed.server.url}/ok`));
      const span = bed.tracing.span('execute_tool fine');
      expect(span.status.code).to.equal(SpanStatusCode.UNSET);
      expect(span.attributes['error.type']).to.equal(undefined);
    });
  });

  describe('framework spans', () => {
    it('enriches an active execute_tool span of the same tool instead of nesting a new one', () => {
      const native = bed.tracer.startSpan('execute_tool lookup', {
        attributes: { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'lookup' },
      });
      expect(() =>
        context.with(trace.setSpan(context.active(), native), () =>
          traceToolCall(bed.tracer, {}, { name: 'lookup', callId: 'c9' }, () => {
            throw Object.assign(new Error('upstream'), { status: 502 });
          }),
        ),
      ).to.throw('upstream');
      expect(bed.tracing.spans()).to.have.length(0);
      native.end();
      const span = bed.tracing.span('execute_tool lookup');
      expect(span.attributes['gen_ai.tool.call.id']).to.equal('c9');
      expect(markOf(span)).to.include({
        type: '502',
        kind: 'transient',
        status: SpanStatusCode.ERROR,
      });
      // The framework owns the span and records its exceptions; the wrapper adds none.
      expect(span.events).to.have.length(0);
    });

    it('recognises AI SDK v6 ai.toolCall spans and ADK execute_tool spans by name', () => {
      const v6 = bed.tracer.startSpan('ai.toolCall', { attributes: { 'ai.toolCall.name': 'search' } });
      context.with(trace.setSpan(context.active(), v6), () =>
        traceToolCall(bed.tracer, {}, { name: 'search' }, () => ({ success: false, error: 'no index' })),
      );
      v6.end();
      const adk = bed.tracer.startSpan('execute_tool search');
      context.with(trace.setSpan(context.active(), adk), () =>
        traceToolCall(bed.tracer, {}, { name: 'search' }, () => 1),
      );
      adk.end();
      const [first, second] = bed.tracing.spans();
      expect(bed.tracing.spans()).to.have.length(2);
      expect(first!.name).to.equal('ai.toolCall');
      expect(first!.attributes['gen_ai.tool.name']).to.equal('search');
      expect(markOf(first!)).to.include({ type: 'tool_error', status: SpanStatusCode.ERROR });
      expect(second!.attributes['gen_ai.operation.name']).to.equal('execute_tool');
    });

    it('nests a span when the active tool span belongs to another tool', () => {
      traceToolCall(bed.tracer, {}, { name: 'outer' }, () =>
        traceToolCall(bed.tracer, {}, { name: 'inner' }, () => 1),
      );
      const inner = bed.tracing.span('execute_tool inner');
      expect(inner.parentSpanContext?.spanId).to.equal(
        bed.tracing.span('execute_tool outer').spanContext().spanId,
      );
    });

    it('keeps one span when two layers wrap the same tool, with the stronger classification', async () => {
      const err = await traceToolCall(bed.tracer, {}, { name: 'layered' }, async () => {
        // The inner layer sees a returned MCP error whose text names a JSON-RPC code.
        traceToolCall(bed.tracer, {}, { name: 'layered' }, () => ({
          isError: true,
          content: [{ type: 'text', text: 'MCP error -32001: Request timed out' }],
        }));
        throw new Error('tool failed');
      }).catch((e: unknown) => e);
      expect((err as Error).message).to.equal('tool failed');
      const span = bed.tracing.span('execute_tool layered');
      expect(markOf(span)).to.include({ type: 'timeout', kind: 'timeout' });
      expect(span.events.filter((e) => e.name === 'exception')).to.have.length(1);
    });
  });

  describe('recordToolError', () => {
    it('puts the real error of an inner function on the outer call, recorded once', async () => {
      const real = new ToolExecutionError('upstream said no', { errorType: '403' });
      const rewrapped = await traceToolCall(bed.tracer, {}, { name: 'adk_like' }, async () => {
        try {
          throw real;
        } catch (err) {
          recordToolError(err);
          throw new Error(`Error in tool 'adk_like': ${(err as Error).message}`);
        }
      }).catch((e: unknown) => e);
      expect((rewrapped as Error).message).to.match(/^Error in tool/);
      const span = bed.tracing.span('execute_tool adk_like');
      expect(markOf(span)).to.include({ type: '403', kind: 'auth' });
      const exceptions = span.events.filter((e) => e.name === 'exception');
      expect(exceptions).to.have.length(1);
      expect(exceptions[0]!.attributes?.['exception.message']).to.equal('upstream said no');
    });

    it('marks a call whose error the framework swallowed', () => {
      traceToolCall(bed.tracer, {}, { name: 'swallowed' }, () => {
        recordToolError(Object.assign(new Error('connect ECONNRESET'), { code: 'ECONNRESET' }));
        return 'An error occurred while running the tool. Please try again.';
      });
      expect(markOf(bed.tracing.span('execute_tool swallowed'))).to.include({
        type: 'ECONNRESET',
        kind: 'network',
      });
    });

    it('does nothing outside a tool call', () => {
      expect(() => recordToolError(new Error('x'))).not.to.throw();
    });
  });

  describe('capture and hooks', () => {
    const args = { city: 'Paris', apiKey: 'sk-abcdefghijklmnopqrstuvwxyz' };

    it('records neither arguments nor results by default', () => {
      traceToolCall(bed.tracer, {}, { name: 'quiet', args }, () => ({ token: 'x' }));
      const span = bed.tracing.span('execute_tool quiet');
      expect(span.attributes).not.to.have.property('gen_ai.tool.call.arguments');
      expect(span.attributes).not.to.have.property('gen_ai.tool.call.result');
    });

    it('records redacted arguments and results when opted in', async () => {
      await traceToolCall(
        bed.tracer,
        { captureArguments: true, captureResults: true },
        { name: 'loud', args },
        async () => ({
          forecast: 'sun',
          password: 'hunter2',
        }),
      );
      const span = bed.tracing.span('execute_tool loud');
      expect(span.attributes['gen_ai.tool.call.arguments']).to.equal(
        '{"city":"Paris","apiKey":"[REDACTED]"}',
      );
      expect(span.attributes['gen_ai.tool.call.result']).to.equal(
        '{"forecast":"sun","password":"[REDACTED]"}',
      );
    });

    it('records the result of a successful call only, as the GenAI conventions say', async () => {
      await traceToolCall(bed.tracer, { captureResults: true }, { name: 'refusing' }, async () => ({
        isError: true,
        content: [{ type: 'text', text: 'quota exceeded' }],
      }));
      const span = bed.tracing.span('execute_tool refusing');
      expect(span.attributes['error.type']).to.equal('tool_error');
      expect(span.attributes).not.to.have.property('gen_ai.tool.call.result');
    });

    it('calls attributesHook once with the outcome, and survives a hook that throws', async () => {
      const seen: unknown[] = [];
      const config = {
        attributesHook: (
          span: Span,
          info: { name: string },
          outcome: { classification?: { kind: string } },
        ) => {
          seen.push([info.name, outcome.classification?.kind]);
          span.setAttribute('app.tenant', 'acme');
          throw new Error('hook bug');
        },
      };
      await traceToolCall(bed.tracer, config, { name: 'hooked' }, () =>
        callApi(`${bed.server.url}/503`),
      ).catch(() => 0);
      expect(seen).to.deep.equal([['hooked', 'transient']]);
      expect(bed.tracing.span('execute_tool hooked').attributes['app.tenant']).to.equal('acme');
    });

    it('hides argument values from the error text while capture is off, and only then', () => {
      const fail = (name: string, captureArguments: boolean) =>
        traceToolCall(bed.tracer, { captureArguments }, { name, args: { query: 'acme-customer-42' } }, () => {
          throw new Error('lookup failed for acme-customer-42');
        });
      expect(() => fail('hidden', false)).to.throw('lookup failed for acme-customer-42');
      const hidden = bed.tracing.span('execute_tool hidden');
      expect(hidden.status.message).to.equal('lookup failed for [REDACTED]');
      const [event] = hidden.events;
      expect(event?.attributes?.['exception.message']).to.equal('lookup failed for [REDACTED]');
      expect(String(event?.attributes?.['exception.stacktrace'])).not.to.include('acme-customer-42');

      expect(() => fail('captured', true)).to.throw();
      expect(bed.tracing.span('execute_tool captured').status.message).to.equal(
        'lookup failed for acme-customer-42',
      );
    });

    it('still marks the span when the arguments are a Proxy whose every trap throws', () => {
      const boom = () => {
        throw new Error('trap');
      };
      const args = new Proxy({}, { ownKeys: boom, getOwnPropertyDescriptor: boom, get: boom, has: boom });
      expect(() =>
        traceToolCall(bed.tracer, {}, { name: 'proxied', args }, () => {
          throw new RangeError('out of range');
        }),
      ).to.throw(RangeError);
      const span = bed.tracing.span('execute_tool proxied');
      expect(markOf(span)).to.include({ type: 'RangeError', status: SpanStatusCode.ERROR });
      expect(span.status.message).to.equal('out of range');
    });

    it('runs the tool untouched when the tracer itself throws', () => {
      const broken = {
        startSpan() {
          throw new Error('tracer bug');
        },
      } as unknown as Tracer;
      expect(traceToolCall(broken, {}, { name: 'x' }, () => 'ran')).to.equal('ran');
    });
  });

  describe('streams', () => {
    it('keeps an async generator, ends the span when iteration ends, and parents spans made inside', async () => {
      async function* chunks() {
        bed.tracer.startSpan('inside').end();
        yield 1;
        await new Promise((resolve) => setTimeout(resolve, 1));
        yield 2;
      }
      const generator = chunks();
      const returned = traceToolCall(bed.tracer, {}, { name: 'gen' }, () => generator);
      expect(returned).to.equal(generator);
      expect(Object.keys(returned)).to.deep.equal([]);
      expect(bed.tracing.spans().map((s) => s.name)).to.deep.equal([]);
      const seen: number[] = [];
      for await (const chunk of returned) seen.push(chunk);
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).to.deep.equal([1, 2]);
      const span = bed.tracing.span('execute_tool gen');
      expect(bed.tracing.span('inside').parentSpanContext?.spanId).to.equal(span.spanContext().spanId);
      expect(span.status.code).to.equal(SpanStatusCode.UNSET);
    });

    it('classifies an error thrown mid-stream and rethrows it unchanged', async () => {
      const boom = Object.assign(new Error('reset'), { code: 'ECONNRESET' });
      async function* failing() {
        yield 'a';
        throw boom;
      }
      const iterable = traceToolCall(bed.tracer, {}, { name: 'gen_fail' }, () => failing());
      let caught: unknown;
      try {
        for await (const chunk of iterable) expect(chunk).to.equal('a');
      } catch (err) {
        caught = err;
      }
      await new Promise((resolve) => setImmediate(resolve));
      expect(caught).to.equal(boom);
      expect(markOf(bed.tracing.span('execute_tool gen_fail'))).to.include({ type: 'ECONNRESET' });
    });

    it('ends the span when the consumer stops early (return)', async () => {
      async function* endless() {
        for (let i = 0; ; i++) yield i;
      }
      const iterable = traceToolCall(bed.tracer, {}, { name: 'endless' }, () => endless());
      for await (const n of iterable) if (n === 2) break;
      await new Promise((resolve) => setImmediate(resolve));
      expect(bed.tracing.span('execute_tool endless').status.code).to.equal(SpanStatusCode.UNSET);
    });

    it('watches plain async iterables in place', async () => {
      const iterable = {
        async *[Symbol.asyncIterator]() {
          yield 'x';
        },
      };
      const returned = traceToolCall(bed.tracer, {}, { name: 'iterable' }, () => iterable);
      expect(returned).to.equal(iterable);
      const seen: string[] = [];
      for await (const item of returned) seen.push(item);
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).to.deep.equal(['x']);
      expect(bed.tracing.spans().map((s) => s.name)).to.deep.equal(['execute_tool iterable']);
    });

    it('passes web ReadableStream chunks and errors through and ends the span with them', async () => {
      const ok = traceToolCall(
        bed.tracer,
        {},
        { name: 'web' },
        () =>
          new ReadableStream<string>({
            start(controller) {
              controller.enqueue('a');
              controller.enqueue('b');
              controller.close();
            },
          }),
      );
      const chunks: string[] = [];
      const okReader = ok.getReader();
      for (let next = await okReader.read(); !next.done; next = await okReader.read())
        chunks.push(next.value);
      expect(chunks).to.deep.equal(['a', 'b']);
      expect(bed.tracing.span('execute_tool web').status.code).to.equal(SpanStatusCode.UNSET);

      const failure = Object.assign(new Error('stream broke'), { status: 500 });
      let pulls = 0;
      const bad = traceToolCall(
        bed.tracer,
        {},
        { name: 'web_fail' },
        () =>
          new ReadableStream({
            pull(controller) {
              if (pulls++ === 0) controller.enqueue('a');
              else controller.error(failure);
            },
          }),
      );
      const reader = bad.getReader();
      expect((await reader.read()).value).to.equal('a');
      const caught = await reader.read().catch((e: unknown) => e);
      expect(caught).to.equal(failure);
      expect(markOf(bed.tracing.span('execute_tool web_fail'))).to.include({ type: '500' });
    });

    it('keeps a Node Readable and ends the span on close, with its error', async () => {
      const good = Readable.from(['1', '2']);
      expect(traceToolCall(bed.tracer, {}, { name: 'node' }, () => good)).to.equal(good);
      const data: string[] = [];
      good.on('data', (d: string) => data.push(d));
      await new Promise((resolve) => good.on('close', resolve));
      expect(data).to.deep.equal(['1', '2']);
      expect(bed.tracing.span('execute_tool node').status.code).to.equal(SpanStatusCode.UNSET);

      const bad = new Readable({ read() {} });
      traceToolCall(bed.tracer, {}, { name: 'node_fail' }, () => bad);
      bad.on('error', () => undefined);
      bad.destroy(Object.assign(new Error('socket'), { code: 'EPIPE' }));
      await new Promise((resolve) => bad.on('close', resolve));
      await new Promise((resolve) => setImmediate(resolve));
      expect(markOf(bed.tracing.span('execute_tool node_fail'))).to.include({ type: 'EPIPE' });
    });

    // The consumer stopping early is covered in test/reliability/transparency.test.ts; an abort
    // that comes from the tool's own signal is the tool's failure, though it has the same code.
    it('marks a Node Readable aborted by a signal inside the tool', async () => {
      const controller = new AbortController();
      async function* slow() {
        yield 'first';
        await new Promise((_, reject) =>
          controller.signal.addEventListener('abort', () => reject(controller.signal.reason)),
        );
      }
      const stream = traceToolCall(bed.tracer, {}, { name: 'node_signal' }, () =>
        addAbortSignal(controller.signal, Readable.from(slow())),
      );
      const seen: unknown[] = [];
      const consumed = (async () => {
        for await (const chunk of stream) {
          seen.push(chunk);
          controller.abort();
        }
      })().catch((err: unknown) => err);
      const caught = (await consumed) as { code?: string; cause?: unknown };
      await new Promise((resolve) => setImmediate(resolve));
      expect(seen).to.deep.equal(['first']);
      expect(caught.code).to.equal('ABORT_ERR');
      expect(caught.cause).to.be.instanceOf(DOMException);
      expect(markOf(bed.tracing.span('execute_tool node_signal'))).to.include({
        kind: 'canceled',
        status: SpanStatusCode.ERROR,
      });
    });
  });
});
