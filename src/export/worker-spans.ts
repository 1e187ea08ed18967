import type { Context, SpanContext } from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/*
 * A pool terminates its worker threads with `worker.terminate()`, which runs no JavaScript in them:
 * a batch waiting there would be lost. So a thread's spans, enriched there, are handed to the main
 * thread as each ends (a BroadcastChannel message outlives the thread), which counts and exports them.
 */

type WorkerThreads = typeof import('node:worker_threads');

const CHANNEL = 'otel-tool-errors:worker-spans';
/** Where the main thread's started register takes the spans (set by telemetry.ts). */
const SINK = Symbol.for('otel-tool-errors.register.worker-span-sink');

/** What crosses threads: a ReadableSpan's data, without its resource (the main thread's is used). */
type SpanData = ReturnType<typeof toData>;

/** True in a worker thread, told without loading worker_threads in the main thread (Node's `chdir` stub). */
export function inWorkerThread(): boolean {
  if (process.chdir.name !== 'unavailableInWorker') return false;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded in worker threads only
  return !(require('node:worker_threads') as WorkerThreads).isMainThread;
}

/** A ReadableSpan's data, as the main thread's register takes it (`takeWorkerSpans`). */
function toData(span: ReadableSpan) {
  const withoutTraceState = (context: SpanContext) => ({ ...context, traceState: undefined });
  return {
    name: span.name,
    kind: span.kind,
    context: withoutTraceState(span.spanContext()),
    parentSpanContext: span.parentSpanContext && withoutTraceState(span.parentSpanContext),
    startTime: span.startTime,
    endTime: span.endTime,
    duration: span.duration,
    status: span.status,
    attributes: span.attributes,
    links: span.links.map((link) => ({ ...link, context: withoutTraceState(link.context) })),
    events: span.events,
    instrumentationScope: span.instrumentationScope,
    droppedAttributesCount: span.droppedAttributesCount,
    droppedEventsCount: span.droppedEventsCount,
    droppedLinksCount: span.droppedLinksCount,
  };
}

/** The span processor a worker thread's register exports through: each span to the main thread. */
export class HandToMainThreadProcessor implements SpanProcessor {
  private readonly channel: InstanceType<WorkerThreads['BroadcastChannel']>;
  constructor() {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- worker threads only
    const { BroadcastChannel } = require('node:worker_threads') as WorkerThreads;
    this.channel = new BroadcastChannel(CHANNEL);
    this.channel.unref();
  }
  onStart(_span: unknown, _context: Context): void {}
  onEnd(span: ReadableSpan): void {
    try {
      this.channel.postMessage(toData(span));
    } catch {
      // A span that cannot be cloned is not worth a broken `end()`.
    }
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    this.channel.close();
    return Promise.resolve();
  }
}

/** In the main thread's register: the worker threads' spans go to `recording`, with its resource. */
export function takeWorkerSpans(recording: SpanProcessor[], resource: ReadableSpan['resource']): void {
  (globalThis as Record<symbol, unknown>)[SINK] = ({ context, ...data }: SpanData) => {
    const span: ReadableSpan = { ...data, spanContext: () => context, ended: true, resource };
    for (const processor of recording) processor.onEnd(span);
  };
}

/**
 * From the entry's preload: once the app starts its first worker thread, listens for the spans the
 * threads hand over; the first one starts the register.
 */
export function receiveWorkerSpans(startNow: () => void): void {
  process.on('worker', function firstWorker() {
    process.off('worker', firstWorker);
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- the app loaded it already
    const { BroadcastChannel, isMainThread } = require('node:worker_threads') as WorkerThreads;
    if (!isMainThread) return;
    const channel = new BroadcastChannel(CHANNEL);
    channel.unref();
    channel.onmessage = (event) => {
      startNow();
      const sink = (globalThis as Record<symbol, ((data: SpanData) => void) | undefined>)[SINK];
      sink?.((event as { data: SpanData }).data);
    };
  });
}
