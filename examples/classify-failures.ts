/**
 * The classifier on its own: real failures from fetch against a local flaky server, printed as a table.
 * Run: npx tsx examples/classify-failures.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { classifyToolError, classifyToolResult, ToolExecutionError } from '../src';

async function main(): Promise<void> {
  const server = createServer((req, res) => {
    if (req.url === '/hang') return; // never answers
    const [status, retryAfter] = (req.url ?? '/500').slice(1).split('?retryAfter=');
    res.writeHead(Number(status), retryAfter ? { 'retry-after': retryAfter } : {}).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  // A port that was just free: connecting to it is refused.
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const refusedPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));

  async function fetchOrThrow(path: string, init?: RequestInit): Promise<Response> {
    const response = await fetch(base + path, init);
    if (!response.ok) throw response;
    return response;
  }

  const failures: Array<[string, () => unknown]> = [
    ['HTTP 500', () => fetchOrThrow('/500')],
    ['HTTP 429 + Retry-After', () => fetchOrThrow('/429?retryAfter=2')],
    ['HTTP 429, no Retry-After', () => fetchOrThrow('/429')],
    ['HTTP 401', () => fetchOrThrow('/401')],
    ['fetch timeout', () => fetchOrThrow('/hang', { signal: AbortSignal.timeout(100) })],
    ['refused port', () => fetch(`http://127.0.0.1:${refusedPort}/`)],
    ['bad arguments', () => z.object({ city: z.string() }).parse({ city: 7 })],
    [
      'declared by the tool',
      () => Promise.reject(new ToolExecutionError('approval denied', { kind: 'not_permitted' })),
    ],
    ['a bug', () => (undefined as unknown as { x: number }).x],
  ];

  const rows: string[][] = [];
  for (const [label, fail] of failures) {
    try {
      await fail();
    } catch (err) {
      const c = classifyToolError(err);
      rows.push([label, c.errorType, c.kind, String(c.retryable), String(c.executed)]);
    }
  }
  const returned = classifyToolResult({
    isError: true,
    content: [{ type: 'text', text: 'MCP error -32602: Tool send_fax not found' }],
  });
  if (returned)
    rows.push([
      'MCP isError result',
      returned.errorType,
      returned.kind,
      String(returned.retryable),
      String(returned.executed),
    ]);
  server.closeAllConnections();
  server.close();

  const header = ['failure', 'error.type', 'tool.error_kind', 'retryable', 'executed'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i])).join('  ');
  console.log([line(header), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n'));
}

void main();
