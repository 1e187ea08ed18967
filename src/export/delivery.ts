import { createNoopMeter, type MeterProvider } from '@opentelemetry/api';
import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { noticeUser } from '../user-notice';

/**
 * What became of the telemetry the register's exporters were given: each export followed to its
 * end, each attempt's answer watched, what was not delivered counted by reason and said in one line.
 */

export type Signal = 'traces' | 'metrics';
export type OtlpProtocol = 'http/protobuf' | 'http/json' | 'grpc';

interface Exporter<T> {
  export(items: T, done: (result: { code: number; error?: Error }) => void): void;
}

/** What one exporter was given (spans, or metric collections) and what became of it. */
class Delivery {
  handed = 0;
  readonly pending = new Set<{ items: number }>();
  readonly lost = new Map<string, number>();
  /** Spans given to the batch processor, dropped from its full queue, and ended once the exit began. */
  queued = 0;
  dropped = 0;
  endedLate = 0;
  /** What went wrong with the last attempt: the collector's status, or the connection's error. */
  lastAttempt: string | undefined;
  /** The collector's last answer, to this signal or another, was a success. */
  collectorAnswered = false;
  /** The destination as an outgoing request spells it, and its origin (none for gRPC). */
  readonly requestKey: string | undefined;
  readonly collectorKey: string | undefined;

  constructor(
    readonly signal: Signal,
    readonly destination: string,
    readonly protocol: OtlpProtocol,
  ) {
    this.requestKey = protocol === 'grpc' ? undefined : urlKey(destination);
    this.collectorKey = this.requestKey && originOf(this.requestKey);
  }

  lose(items: number, reason: string): void {
    if (items > 0) this.lost.set(reason, (this.lost.get(reason) ?? 0) + items);
  }

  lostCount(): number {
    return [...this.lost.values()].reduce((total, count) => total + count, 0);
  }
}

const deliveries: Delivery[] = [];
/** Lost items already reported while the app ran; undefined until then. */
let reportedWhileRunning: number | undefined;
let exiting = false;
let reportScheduled = false;
let watching = false;
const deliveryFor = new WeakMap<object, Delivery>();

/** Where an OTLP exporter of `signal` sends, by the rules its OTEL_EXPORTER_OTLP_* variables follow. */
export function otlpDestination(
  signal: Signal,
  protocol: OtlpProtocol,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const own = env[`OTEL_EXPORTER_OTLP_${signal.toUpperCase()}_ENDPOINT`]?.trim();
  if (own) return own;
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (protocol === 'grpc') return base || 'http://localhost:4317';
  return `${(base || 'http://localhost:4318').replace(/\/+$/, '')}/v1/${signal}`;
}

/** `http://host:port/path?query` as both a URL and an outgoing request spell it (default ports left out). */
function urlKey(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}${parsed.search}`;
  } catch {
    return undefined;
  }
}

/** `http://host:port` of a URL key (which always has a path). */
function originOf(key: string): string {
  return key.slice(0, key.indexOf('/', key.indexOf('//') + 2));
}

/**
 * Watches every attempt of the OTLP/HTTP exporters, retries included (their export result does not
 * show them), through Node's HTTP diagnostics channels: a 503 to each retry is reported as such.
 */
function watchAttempts(): void {
  if (watching) return;
  watching = true;
  const keyOf = (request: ClientRequest) =>
    `${request.protocol}//${String(request.getHeader('host'))}${request.path}`;
  const deliveriesOf = (request: ClientRequest) =>
    deliveries.filter((delivery) => delivery.requestKey === keyOf(request));
  const record = (request: ClientRequest, problem: string | undefined) => {
    const to = deliveriesOf(request);
    for (const delivery of to) delivery.lastAttempt = problem;
    if (to.length === 0) return;
    const collector = originOf(keyOf(request));
    for (const delivery of deliveries) {
      if (delivery.collectorKey === collector) delivery.collectorAnswered = problem === undefined;
    }
  };
  const timedOut = new WeakSet<ClientRequest>();
  subscribe('http.client.request.start', (message) => {
    const { request } = message as { request: ClientRequest };
    if (deliveriesOf(request).length === 0) return;
    // The exporter destroys a request past its timeout: the "socket hang up" that follows is ours.
    request.once('timeout', () => {
      timedOut.add(request);
      record(request, 'timed out');
    });
  });
  subscribe('http.client.response.finish', (message) => {
    const { request, response } = message as { request: ClientRequest; response: IncomingMessage };
    const status = response.statusCode ?? 0;
    record(request, status >= 200 && status < 300 ? undefined : `HTTP ${status}`);
  });
  subscribe('http.client.request.error', (message) => {
    const { request, error } = message as { request: ClientRequest; error: Error & { code?: unknown } };
    if (!timedOut.has(request)) record(request, connectionProblem(error) ?? 'no answer');
  });
}

function connectionProblem(error: { code?: unknown } | undefined): string | undefined {
  if (error?.code === 'ECONNREFUSED') return 'refused';
  if (typeof error?.code === 'string' && /^E[A-Z_]+$/.test(error.code)) return error.code;
  return undefined;
}

/** "refused", "timed out" or "gRPC <STATUS>" from a gRPC error ("14 UNAVAILABLE: … ECONNREFUSED …"). */
function grpcReason(message: string): string | undefined {
  if (/ECONNREFUSED/.test(message)) return 'refused';
  const status = /^\d+ ([A-Z_]+)/.exec(message)?.[1];
  if (status === 'DEADLINE_EXCEEDED') return 'timed out';
  return status && `gRPC ${status}`;
}

/** Why an export failed for good, from its result and the attempts watched. */
function reasonOf(delivery: Delivery, error: (Error & { code?: unknown }) | undefined): string {
  const grpc = delivery.protocol === 'grpc' ? grpcReason(error?.message ?? '') : undefined;
  const reason = connectionProblem(error) ?? grpc;
  if (reason) return reason;
  if (error?.message === 'Request timed out') return 'timed out';
  if (typeof error?.code === 'number' && delivery.protocol !== 'grpc') return `HTTP ${error.code}`;
  if (error?.message === 'Export failed with retryable status') {
    return `${delivery.lastAttempt ?? 'a retryable answer'} until the retries ran out`;
  }
  if (error?.message === 'Concurrent export limit reached') return 'too many exports at once';
  return (error?.message ?? 'export failed').slice(0, 80);
}

/** Follows each export of `exporter` to its end (after its own retries) and counts what was not delivered. */
export function followingDelivery<E extends Exporter<any>>(
  exporter: E,
  signal: Signal,
  protocol: OtlpProtocol,
  destination = otlpDestination(signal, protocol),
): E {
  const delivery = new Delivery(signal, destination, protocol);
  deliveries.push(delivery);
  deliveryFor.set(exporter, delivery);
  if (protocol !== 'grpc') watchAttempts();
  const exportItems = exporter.export.bind(exporter);
  exporter.export = (items, done) => {
    // Spans come as an array, metrics as one collection.
    const pending = { items: Array.isArray(items) ? items.length : 1 };
    delivery.handed += pending.items;
    delivery.pending.add(pending);
    exportItems(items, (result) => {
      if (delivery.pending.delete(pending) && result.code !== 0) {
        delivery.lose(pending.items, reasonOf(delivery, result.error));
        reportWhileRunning();
      }
      done(result);
    });
  };
  return exporter;
}

/**
 * A meter provider for a batch span processor's own metrics that counts, with what `exporter` lost,
 * the spans it dropped because its queue was full (`otel.sdk.processor.span.processed`).
 */
export function queueDropCounter(exporter: object): MeterProvider {
  const meter = createNoopMeter();
  const createCounter = meter.createCounter.bind(meter);
  meter.createCounter = (name, options) => {
    if (name !== 'otel.sdk.processor.span.processed') return createCounter(name, options);
    return {
      add(value, attributes) {
        const delivery = deliveryFor.get(exporter);
        if (attributes?.['error.type'] !== 'queue_full' || !delivery) return;
        delivery.dropped += value;
        delivery.lose(value, 'dropped because the queue was full');
        reportWhileRunning();
      },
    };
  };
  return { getMeter: () => meter };
}

/**
 * True when every collector with exports still to settle answered its last attempt with success:
 * what is pending is a retry waiting its turn or an answer on its way, not a collector gone silent.
 */
export function collectorsAnswering(): boolean {
  return deliveries.every((delivery) => delivery.pending.size === 0 || delivery.collectorAnswered);
}

/** Counts a span given to the batch processor that feeds `exporter`. */
export function spanQueued(exporter: object): void {
  const delivery = deliveryFor.get(exporter);
  if (!delivery) return;
  if (!exiting) {
    delivery.queued++;
    return;
  }
  // The processor takes no span once the exit began (a signal listener of the app's, say).
  delivery.endedLate++;
  delivery.lose(1, 'ended after the exit began');
}

function totalLost(): number {
  return deliveries.reduce((total, delivery) => total + delivery.lostCount(), 0);
}

/** "12 of 40 spans to <url> (8 refused, 4 timed out)" for each delivery that lost something, spans first. */
function lossSummary(): string {
  const spansFirst = (delivery: Delivery) => (delivery.signal === 'traces' ? 0 : 1);
  return [...deliveries]
    .sort((a, b) => spansFirst(a) - spansFirst(b))
    .filter((delivery) => delivery.lostCount() > 0)
    .map((delivery) => {
      const unit = delivery.signal === 'traces' ? 'span' : 'metric export';
      const reasons = [...delivery.lost].map(([reason, count]) => `${count} ${reason}`).join(', ');
      // Spans dropped from a full queue, still in it, or too late for it never reached the exporter.
      const count = Math.max(delivery.queued, delivery.handed + delivery.dropped) + delivery.endedLate;
      const total = `${count} ${unit}${count === 1 ? '' : 's'}`;
      return `${delivery.lostCount()} of ${total} to ${delivery.destination} not delivered (${reasons})`;
    })
    .join('; ');
}

/**
 * What to do about the reasons given: `exitTimeoutMillis` when the exit waited that long, `null`
 * when the app ended with `process.exit()` before the register could flush, none while it runs.
 */
function hints(exitTimeoutMillis?: number | null): string {
  const reasons = deliveries.flatMap((delivery) => [...delivery.lost.keys()]).join(' ');
  const hints: string[] = [];
  if (/refused|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|gRPC UNAVAILABLE/.test(reasons)) {
    hints.push('Is the collector running? Set OTEL_EXPORTER_OTLP_ENDPOINT to where it listens.');
  }
  if (exitTimeoutMillis === null && /at exit/.test(reasons)) {
    hints.push(
      'The app called process.exit(): set process.exitCode instead, and the register flushes first.',
    );
  }
  if (typeof exitTimeoutMillis === 'number' && /(unanswered|still retrying) at exit/.test(reasons)) {
    hints.push(`OTEL_TOOL_ERRORS_EXIT_TIMEOUT sets how long the exit waits (${exitTimeoutMillis} ms).`);
  }
  if (/queue was full/.test(reasons)) hints.push('OTEL_BSP_MAX_QUEUE_SIZE sets the queue for bursts.');
  return hints.map((hint) => ` ${hint}`).join('');
}

/**
 * While the app runs (a service may run for weeks), a loss is said a second after the first one,
 * so that a burst is counted in one line; an exit before then says it.
 */
function reportWhileRunning(): void {
  // An export of nothing (an empty batch) that failed lost nothing.
  if (exiting || reportScheduled || totalLost() === 0) return;
  reportScheduled = true;
  setTimeout(() => {
    if (exiting) return;
    reportedWhileRunning = totalLost();
    noticeUser(`telemetry lost: ${lossSummary()}.${hints()} The exit will say how much was lost in all.`);
  }, 1_000).unref();
}

/** From now on, losses wait for `reportAtExit`. */
export function exitStarted(): void {
  exiting = true;
}

/**
 * Says how much telemetry was not delivered and why, counting what is still queued (the app called
 * `process.exit()`) or unsettled as lost; after a line while the app ran, only if more was lost.
 * `exitTimeoutMillis` is how long the exit waited, `null` if the app left no time.
 */
export function reportAtExit(exitTimeoutMillis: number | null): void {
  exiting = true;
  for (const delivery of deliveries) {
    delivery.lose(delivery.queued - delivery.handed - delivery.dropped, 'still queued at exit');
    const reason = delivery.lastAttempt
      ? `${delivery.lastAttempt}, still retrying at exit`
      : 'unanswered at exit';
    for (const pending of delivery.pending) delivery.lose(pending.items, reason);
    delivery.pending.clear();
  }
  const lost = totalLost();
  if (lost === 0 || lost === reportedWhileRunning) return;
  const inAll = reportedWhileRunning === undefined ? '' : ' in all';
  reportedWhileRunning = lost;
  noticeUser(`telemetry lost${inAll}: ${lossSummary()}.${hints(exitTimeoutMillis)}`);
}
