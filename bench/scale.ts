import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '../src/semconv';
import { formatBytes, heapUsedAfterGc, measure, rowsAgainst, valueRow, type Row } from './harness';
import { loadPackage } from './subject';
import { consume, dropProvider } from './tracing';
import { minimalWrapper, type Tool } from './wrapper';

const { instrumentTool, ToolErrorSpanProcessor, ToolExecutionError } = loadPackage();

/**
 * Case 6: overhead per call with many calls in flight; heap retained after a million calls; and
 * the processor's bookkeeping when tool spans never end. Every provider drops spans in its
 * exporting processor, so the heap numbers are this package's retention, not an export queue's.
 */

/** Tools that wait on `gate` so that `inFlight` calls are open at once, then all settle. */
function concurrentBatch(
  inFlight: number,
  makeTool: (wait: () => Promise<void>) => Tool,
): () => Promise<void> {
  let gate: Promise<void> = Promise.resolve();
  const tool = makeTool(() => gate);
  const args = { city: 'Paris' };
  return async () => {
    let release!: () => void;
    gate = new Promise<void>((resolve) => (release = resolve));
    const calls: Array<Promise<unknown>> = new Array(inFlight);
    for (let i = 0; i < inFlight; i++) calls[i] = tool(args);
    release();
    consume(await Promise.all(calls));
  };
}

/**
 * Per-call cost with 1, 100 and 10,000 calls in flight: the bare tool, the hand-written minimal
 * wrapper (plain provider) and ours (provider with the processor), side by side. Ratios are
 * against the minimal wrapper, the floor for anything that makes a span per call.
 */
async function concurrency(): Promise<Row[]> {
  const plain = dropProvider();
  const processed = dropProvider([new ToolErrorSpanProcessor()]);
  const rows: Row[] = [];
  for (const inFlight of [1, 100, 10_000]) {
    const weather =
      (wait: () => Promise<void>): Tool =>
      async ({ city }) => {
        await wait();
        return { city, tempC: 21 };
      };
    // Enough calls per sample to amortise the timer; fewer rounds for the slow 10,000 case.
    const repeat = Math.max(1, Math.floor(200 / inFlight));
    const sample = (batch: () => Promise<void>) => async () => {
      for (let i = 0; i < repeat; i++) await batch();
    };
    const tracer = plain.provider.getTracer('bench');
    const variants = [
      { name: 'bare tool', fn: sample(concurrentBatch(inFlight, weather)) },
      {
        name: 'minimal wrapper',
        fn: sample(concurrentBatch(inFlight, (wait) => minimalWrapper(tracer, weather(wait)))),
      },
      {
        name: 'instrumentTool + ToolErrorSpanProcessor',
        fn: sample(
          concurrentBatch(inFlight, (wait) =>
            instrumentTool(weather(wait), 'get_weather', { tracerProvider: processed.provider }),
          ),
        ),
      },
    ];
    const caseName = `6 scale: ${inFlight.toLocaleString('en')} in flight (per call, vs minimal wrapper)`;
    const samples = await measure(
      caseName,
      variants,
      repeat * inFlight,
      inFlight > 1000 ? { rounds: 3 } : {},
    );
    rows.push(...rowsAgainst(caseName, samples, 'minimal wrapper', variants));
  }
  await Promise.all([plain.provider.shutdown(), processed.provider.shutdown()]);
  return rows;
}

const CALLS = 1_000_000;
const YIELD_EVERY = 1_000;

/** A million sequential calls, one in ten failing (a few error shapes), then the heap after GC. */
async function retainedHeap(): Promise<Row[]> {
  const errors = [
    Object.assign(new Error('Request failed with status code 503'), { status: 503 }),
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' }),
    new ToolExecutionError('quota exhausted', { kind: 'quota' }),
    new TypeError("Cannot read properties of undefined (reading 'temp')"),
  ];
  let n = 0;
  const flaky: Tool = async ({ city }) => {
    n++;
    if (n % 10 === 0) throw errors[(n / 10) % errors.length];
    return { city, tempC: 21 };
  };
  const rows: Row[] = [];
  const setups: Array<[string, () => { tool: Tool; shutdown: () => Promise<void> }]> = [
    ['bare tool (control)', () => ({ tool: flaky, shutdown: async () => {} })],
    [
      'instrumentTool + ToolErrorSpanProcessor',
      () => {
        const { provider } = dropProvider([new ToolErrorSpanProcessor()]);
        return {
          tool: instrumentTool(flaky, 'get_weather', { tracerProvider: provider }),
          shutdown: () => provider.shutdown(),
        };
      },
    ],
  ];
  for (const [name, setup] of setups) {
    const { tool, shutdown } = setup();
    const callAll = async (count: number) => {
      const args = { city: 'Paris' };
      for (let i = 0; i < count; i++) {
        try {
          await tool(args);
        } catch {
          // one call in ten fails on purpose
        }
        // Back to the event loop now and then, as a server between requests: Node runs the
        // async_hooks destroy callbacks of settled promises from there, and a loop that never
        // leaves the microtask queue keeps every call's (about 1.8 KB with the wrapper's promise
        // hooks) until it does, 1.8 GB for a million calls.
        if (i % YIELD_EVERY === 0) await new Promise((resolve) => setImmediate(resolve));
      }
    };
    await callAll(20_000); // warm up: JIT, the error-type registry, lazy SDK state
    const before = heapUsedAfterGc();
    const started = performance.now();
    await callAll(CALLS);
    const seconds = (performance.now() - started) / 1000;
    const growth = heapUsedAfterGc() - before;
    rows.push(
      valueRow({
        case: '6 scale: heap after GC, 1,000,000 calls, 10% failing',
        variant: name,
        value: formatBytes(growth, true),
        spread: `${seconds.toFixed(1)} s for the calls`,
        target: name.startsWith('bare') ? '' : '< 2 MB',
        verdict: name.startsWith('bare') ? '' : growth < 2 * 1024 * 1024 ? 'met' : 'MISSED',
      }),
    );
    await shutdown();
  }
  return rows;
}

const NEVER_ENDED = 100_000;

/** 100,000 tool spans started and never ended (their objects dropped): what the processor keeps. */
async function neverEndedSpans(): Promise<Row[]> {
  const rows: Row[] = [];
  for (const withProcessor of [false, true]) {
    const processor = new ToolErrorSpanProcessor();
    const { provider } = dropProvider(withProcessor ? [processor] : []);
    const tracer = provider.getTracer('bench');
    const before = heapUsedAfterGc();
    for (let i = 0; i < NEVER_ENDED; i++) {
      tracer.startSpan('execute_tool never_returns', {
        attributes: {
          [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
          [ATTR_GEN_AI_TOOL_NAME]: 'never_returns',
        },
      });
    }
    const growth = heapUsedAfterGc() - before;
    rows.push(
      valueRow({
        case: '6 scale: 100,000 tool spans never ended',
        variant: withProcessor ? 'with ToolErrorSpanProcessor' : 'without processor (control)',
        value: formatBytes(growth, true),
        spread: withProcessor
          ? `tracked open tool spans: ${processor._openToolSpanCount.toLocaleString('en')}`
          : '',
        target: withProcessor ? 'bounded (≤ 10,000 tracked)' : '',
        verdict: withProcessor ? (processor._openToolSpanCount <= 10_000 ? 'met' : 'MISSED') : '',
      }),
    );
    await provider.shutdown();
  }
  return rows;
}

export async function run(): Promise<Row[]> {
  return [...(await concurrency()), ...(await retainedHeap()), ...(await neverEndedSpans())];
}
