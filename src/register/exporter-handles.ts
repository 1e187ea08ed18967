import { subscribe } from 'node:diagnostics_channel';
import type { ClientRequest } from 'node:http';
import type { Socket } from 'node:net';

/**
 * An OTLP exporter holds the process open while its request is in flight or while a retry waits
 * its turn, for up to its 10 s timeout. The register learns that the app is done when the event
 * loop empties (`beforeExit`) and then bounds the exit itself, so the exporters' sockets and retry
 * timers must not keep the loop busy: a finished script would otherwise wait out every retry
 * before the exit even began. While the app runs (or the exit waits), they work as before.
 */

/** The User-Agent every OpenTelemetry JS OTLP/HTTP exporter sends. */
const OTLP_USER_AGENT = 'OTel-OTLP-Exporter-JavaScript/';
let watching = false;

/** Sockets of OTLP/HTTP export requests, found through Node's HTTP diagnostics channel. */
function unrefExportSockets(): void {
  if (watching) return;
  watching = true;
  subscribe('http.client.request.start', (message) => {
    const { request } = message as { request: ClientRequest };
    if (!String(request.getHeader('user-agent') ?? '').includes(OTLP_USER_AGENT)) return;
    // A kept-alive socket is ref'd again each time the agent hands it to a request, before this.
    request.socket?.unref();
    request.once('socket', (socket: Socket) => socket.unref());
  });
}

/**
 * Makes the timers that `target[method]` sets during its synchronous run unref'd. The methods the
 * register gives it are private to OpenTelemetry's classes (the versions it depends on): when one
 * is not there, nothing changes and the exit waits for its timer, as it would without the register.
 */
export function unrefTimersOf(target: object | undefined, method: string): void {
  const holder = target as Record<string, unknown> | undefined;
  const original = holder?.[method];
  if (typeof original !== 'function') return;
  holder![method] = function (this: unknown, ...args: unknown[]) {
    const setTimer = globalThis.setTimeout;
    globalThis.setTimeout = ((...timerArgs: Parameters<typeof setTimeout>) =>
      setTimer(...timerArgs).unref()) as typeof setTimeout;
    try {
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } finally {
      globalThis.setTimeout = setTimer;
    }
  };
}

/**
 * Keeps `exporter`'s sockets and the backoff of its retrying transport (otlp-exporter-base's
 * `RetryingTransport.retry`, which waits with a `setTimeout`) from holding the process open.
 */
export function releasingHandles<E extends object>(exporter: E, protocol: string): E {
  if (protocol !== 'grpc') unrefExportSockets();
  unrefTimersOf((exporter as { _delegate?: { _transport?: object } })._delegate?._transport, 'retry');
  return exporter;
}
