import type {
  Context,
  HrTime,
  Link,
  SpanContext,
  SpanKind,
  SpanStatus,
  Attributes,
} from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor, TimedEvent } from '@opentelemetry/sdk-trace-base';

/*
 * Worker threads: a pool terminates its threads with `worker.terminate()`, which runs no JavaScript
 * in the thread, so a batch waiting there is lost. Under the register, a worker thread's spans are
 * enriched in the thread, then handed to the main thread as each ends (a BroadcastChannel message
 * is queued at once and outlives the thread); the main thread's register counts them in the tool
 * metrics and exports them with its own.
 */

type WorkerThreads = typeof import('node:worker_threads');

const CHANNEL = 'otel-tool-errors:worker-spans';
/** Where the main thread's started register takes the spans (set by telemetry.ts). */
const SINK = Symbol.for('otel-tool-errors.register.worker-span-sink');

/** What crosses threads: a ReadableSpan's data, without its resource (the main thread's is used). */
export interface SpanData {
  name: string;
  kind: SpanKind;
  context: SpanContext;
  parentContext: SpanContext | undefined;
  startTime: HrTime;
  endTime: HrTime;
  duration: HrTime;
  status: SpanStatus;
  attributes: Attributes;
  links: Link[];
  events: TimedEvent[];
  scope: ReadableSpan['instrumentationScope'];
  dropped: [number, number, number];
}

/**
 * True in a worker thread, told without loading worker_threads in the main thread (a start there
 * loads none of it): Node puts a stub named `unavailableInWorker` in place of `process.chdir` in
 * worker threads, and worker_threads itself then confirms.
 */
export function inWorkerThread(): boolean {
  if (process.chdir.name !== 'unavailableInWorker') return false;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded in worker threads only
  return !(require('node:worker_threads') as WorkerThreads).isMainThread;
}

function toData(span: ReadableSpan): SpanData {
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
    dropped: [span.droppedAttributesCount, span.droppedEventsCount, span.droppedLinksCount],
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

/**
 * The main thread's register: the processors that record and export (the tool metrics among them),
 * and the resource its spans carry.
 */
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
 * In the main thread, from the entry's preload: once the app starts its first worker thread (Node's
 * `worker` event, which needs no module loaded), listens for the spans worker threads hand over;
 * the first one starts the register if it has not started.
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
