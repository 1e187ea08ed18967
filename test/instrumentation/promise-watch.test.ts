import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { traceToolCall } from '../../src/instrumentation/tool-call/trace-tool-call';
import { ensureContextManager } from '../helpers/tracing';

describe('promise-watch', () => {
  it('keeps no result alive through a loop of awaited calls that never yields to the event loop', async () => {
    ensureContextManager();
    const provider = new BasicTracerProvider();
    const tracer = provider.getTracer('promise-watch-test');
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    // 16 KiB a result: 2,000 kept alive would be 32 MiB.
    const tool = () =>
      traceToolCall(tracer, {}, { name: 'big' }, async () => new Array<number>(2048).fill(0.5));
    gc();
    const before = process.memoryUsage().heapUsed;
    // `await` on settled promises: microtasks only, the event loop does not turn until the end.
    for (let i = 0; i < 2000; i++) await tool();
    gc();
    const grown = process.memoryUsage().heapUsed - before;
    await provider.shutdown();
    expect(grown, `heap grew ${grown} bytes`).to.be.below(8 * 1024 * 1024);
  });
});
