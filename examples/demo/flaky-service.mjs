import { createServer } from 'node:http';

/**
 * The demo's upstream: a JSON API on 127.0.0.1 that fails on purpose.
 *
 * - `/ok` answers 200 `{"ok":true}`;
 * - `/NNN` answers status NNN (500, 503, 404, 401, 429 …); `?retryAfter=S` adds `Retry-After: S`;
 * - `/hang` never answers, so the caller's timeout fires.
 */
export async function startFlakyService() {
  const sockets = new Set();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/hang') return;
    if (url.pathname === '/ok') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}');
      return;
    }
    const status = /^\/([1-5]\d\d)$/.exec(url.pathname);
    const code = status ? Number(status[1]) : 404;
    const headers = { 'content-type': 'application/json' };
    const retryAfter = url.searchParams.get('retryAfter');
    if (retryAfter !== null) headers['retry-after'] = retryAfter;
    res.writeHead(code, headers).end(JSON.stringify({ error: `status ${code}` }));
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    close: () =>
      new Promise((resolve) => {
        // Hanging requests keep their sockets open: end them or close() never returns.
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A 127.0.0.1 port that nothing listens on, for a tool whose service is down. */
export async function refusedPort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}
