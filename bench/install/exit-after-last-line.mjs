// Time from a script's last line of output to its exit, under `--require otel-tool-errors/register`
// with its defaults, for a collector that is down, refusing, answering 429/503, or never answering.
// Usage: node exit-after-last-line.mjs <app dir with otel-tool-errors installed>
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';

const appDir = process.argv[2];
const RUNS = 5;

function server(handler) {
  return new Promise((resolve) => {
    const srv = createServer(handler);
    srv.listen(0, '127.0.0.1', () => resolve(srv));
  });
}

function oneRun(env) {
  return new Promise((resolve) => {
    const script =
      "require('@opentelemetry/api').trace.getTracer('t').startSpan('s').end(); console.log('last line')";
    const child = spawn(process.execPath, ['--require', 'otel-tool-errors/register', '-e', script], {
      cwd: appDir,
      env: { PATH: process.env.PATH, ...env },
    });
    let lastLineAt;
    let stderr = '';
    child.stdout.on('data', () => (lastLineAt ??= performance.now()));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', () =>
      resolve({
        ms: performance.now() - lastLineAt,
        stderrLines: stderr.trim().split('\n').filter(Boolean).length,
      }),
    );
  });
}

const sockets = new Set();
const answering =
  (status, headers = {}) =>
  (req, res) =>
    req.resume().on('end', () => res.writeHead(status, headers).end());
const servers = {
  ok: await server(answering(200, { 'content-type': 'application/x-protobuf' })),
  429: await server(answering(429, { 'retry-after': '1' })),
  503: await server(answering(503)),
  hang: await server((req) => sockets.add(req.socket)),
  refused: await server(() => {}),
};
const refusedPort = servers.refused.address().port;
await new Promise((resolve) => servers.refused.close(resolve));
const endpoint = (srv) => `http://127.0.0.1:${srv.address().port}`;
const cases = [
  ['collector answering 200', endpoint(servers.ok)],
  ['collector down (connection refused)', `http://127.0.0.1:${refusedPort}`],
  ['collector answering 429 (Retry-After: 1)', endpoint(servers[429])],
  ['collector answering 503', endpoint(servers[503])],
  ['collector accepting, never answering', endpoint(servers.hang)],
];
console.log('| collector | median ms from last line to exit | max ms | stderr lines |');
console.log('|---|---:|---:|---:|');
for (const [name, url] of cases) {
  const runs = [];
  for (let i = 0; i < RUNS; i++) runs.push(await oneRun({ OTEL_EXPORTER_OTLP_ENDPOINT: url }));
  const ms = runs.map((r) => r.ms).sort((a, b) => a - b);
  console.log(
    `| ${name} | ${Math.round(ms[Math.floor(RUNS / 2)])} | ${Math.round(ms[RUNS - 1])} | ${runs[0].stderrLines} |`,
  );
}
for (const socket of sockets) socket.destroy();
for (const srv of Object.values(servers)) srv.close();
