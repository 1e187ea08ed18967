import { createServer } from 'node:http';
import { listenOnLoopback } from './loopback';

/**
 * A real HTTP server on 127.0.0.1 that fails on purpose, for tools that call it.
 *
 * Routes:
 * - `/ok` answers 200 with `{"ok":true}`;
 * - `/500`, `/503`, `/404`, `/401`, `/429` (any `/NNN`) answer that status with a JSON body;
 *   `?retryAfter=N` adds a `Retry-After: N` header;
 * - `/hang` never answers (the socket is destroyed on `close()`).
 */
export interface FlakyServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Number of requests received so far. */
  requestCount(): number;
  /** Stops listening and destroys open sockets, hanging ones included. */
  close(): Promise<void>;
}

export async function startFlakyServer(): Promise<FlakyServer> {
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/hang') return;
    if (url.pathname === '/ok') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    const status = /^\/(\d{3})$/.exec(url.pathname);
    if (!status) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"no such route"}');
      return;
    }
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const retryAfter = url.searchParams.get('retryAfter');
    if (retryAfter !== null) headers['retry-after'] = retryAfter;
    res.writeHead(Number(status[1]), headers).end(JSON.stringify({ error: `status ${status[1]}` }));
  });
  // Idle keep-alive sockets outlive any pause of the process. With Node's default (5 s), a spec that
  // loads a framework synchronously for longer (late in a full run, under many hook layers) lets the
  // server close the socket that fetch's pool hands the next request in the same tick: ECONNRESET.
  server.keepAliveTimeout = 120_000;
  const { url, port, close } = await listenOnLoopback(server);
  return { url, port, requestCount: () => requests, close };
}

/** A 127.0.0.1 port that nothing listens on: connecting to it fails with ECONNREFUSED. */
export async function refusedPort(): Promise<number> {
  const { port, close } = await listenOnLoopback(createServer());
  await close();
  return port;
}
