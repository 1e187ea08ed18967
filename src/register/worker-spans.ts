import type { Context } from '@opentelemetry/api';
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

function toData(span: ReadableSpan) {
  return {
    name: span.name,
    kind: span.kind,
    context: { ...span.spanContext(), traceState: undefined },
    parentContext: span.parentSpanContext ? { ...span.parentSpanContext, traceState: undefined } : undefined,
    startTime: span.startTime,
    endTime: span.endTime,
    duration: span.duration,
    status: span.status,
    attributes: span.attributes,
    links: span.links.map((link) => ({ ...link, context: { ...link.context, traceState: undefined } })),
    events: span.events,
    scope: span.instrumentationScope,
    dropped: [span.droppedAttributesCount, span.droppedEventsCount, span.droppedLinksCount] as const,
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
  (globalThis as Record<symbol, unknown>)[SINK] = (data: SpanData) => {
    const span: ReadableSpan = {
      name: data.name,
      kind: data.kind,
      spanContext: () => data.context,
      parentSpanContext: data.parentContext,
      startTime: data.startTime,
      endTime: data.endTime,
      duration: data.duration,
      status: data.status,
      attributes: data.attributes,
      links: data.links,
      events: data.events,
      ended: true,
      resource,
      instrumentationScope: data.scope,
      droppedAttributesCount: data.dropped[0],
      droppedEventsCount: data.dropped[1],
      droppedLinksCount: data.dropped[2],
    };
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
