import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { traceToolCall } from '../../src/instrumentation/tool-call/trace-tool-call';
import { ensureContextManager } from '../helpers/tracing';
import { WeakHandles } from '../helpers/weak-handles';

/** What a tool returns: held by the test only through a `WeakRef` once handed to the tool. */
class ToolResult {
  readonly rows = [0.5, 0.25];
}

describe('promise-watch', () => {
  it('keeps no result alive through a loop of awaited calls that never yields to the event loop', async () => {
    ensureContextManager();
    const provider = new BasicTracerProvider();
    const tracer = provider.getTracer('promise-watch-test');
    const CALLS = 2000;
    const results = new WeakHandles(Array.from({ length: CALLS }, () => new ToolResult()));
    // A turn of the event loop between making the weak references and the calls (see WeakHandles).
    await new Promise((resolve) => setImmediate(resolve));
    const tool = () => traceToolCall(tracer, {}, { name: 'big' }, async () => results.take());
    // `await` on settled promises: microtasks only, the event loop does not turn until the end.
    for (let i = 0; i < CALLS; i++) await tool();
    // Still inside that loop of microtasks: the sweep the package scheduled has not run.
    const alive = results.aliveAfterGc();
    await provider.shutdown();
    // The last call's result may still be referenced by the loop's own frame.
    expect(alive, `results alive after ${CALLS} calls`).to.be.at.most(1);
  });
});
