import { createServer, type IncomingHttpHeaders } from 'node:http';
import { listenOnLoopback } from '../../helpers/loopback';

/** One answer: a status with the headers and body the real service sends, or no answer at all. */
export type Reply = { status: number; headers?: Record<string, string>; body?: unknown } | 'hang';

export interface ApiServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  readonly port: number;
  /** Sets what every request gets from now on. */
  reply(reply: Reply): void;
  /** The last request's method, path and headers. */
  lastRequest(): { method?: string; url?: string; headers: IncomingHttpHeaders } | undefined;
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 that plays an API: each case sets the reply it wants first. A
 * body that is an object is sent as JSON, a string as it is (XML for the cloud storage APIs).
 */
export async function startApiServer(): Promise<ApiServer> {
  let current: Reply = { status: 500 };
  let last: ReturnType<ApiServer['lastRequest']>;
  const server = createServer((req, res) => {
    last = { method: req.method, url: req.url, headers: req.headers };
    req.resume();
    const reply = current;
    if (reply === 'hang') return;
    const body =
      reply.body === undefined
        ? ''
        : typeof reply.body === 'string'
          ? reply.body
          : JSON.stringify(reply.body);
    const headers: Record<string, string> = {
      'content-type': typeof reply.body === 'string' ? 'application/xml' : 'application/json',
      ...reply.headers,
    };
    req.on('end', () => res.writeHead(reply.status, headers).end(body));
  });
  const { url, port, close } = await listenOnLoopback(server);
  return {
    url,
    port,
    reply: (reply) => {
      current = reply;
    },
    lastRequest: () => last,
    close,
  };
}
