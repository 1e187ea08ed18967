import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'chai';
import { installApp } from '../test/pipeline/installed-app';
import { runNode } from '../test/pipeline/run-node';
import { startFlakyServer, type FlakyServer } from '../test/helpers/flaky-server';
import {
  startOtlpJsonReceiver,
  type OtlpJsonReceiver,
  type ReceivedSpan,
} from '../test/helpers/otlp-json-receiver';

/**
 * A Next.js app router app, as the README's recipe writes it (test-compat/nextjs): `instrumentation.ts`
 * registers `@vercel/otel` with this package's processors, and a route handler runs an AI SDK agent
 * (its own telemetry on) whose tools fail for real against a local server. Built with `next build`,
 * started with `next start`, driven by a real request, exporting OTLP to a local receiver.
 */

const NEXT = join(__dirname, '..', 'node_modules', 'next', 'dist', 'bin', 'next');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

describe('Next.js: an AI SDK route traced by @vercel/otel with the processors (next build, next start)', function () {
  this.timeout(600_000);
  let app: { dir: string; remove(): void };
  let flaky: FlakyServer;
  let receiver: OtlpJsonReceiver;
  let server: ChildProcess | undefined;
  let serverOutput = '';
  let response: { status: number; body: unknown };

  before(async () => {
    app = await installApp(join(__dirname, 'nextjs'));
    flaky = await startFlakyServer();
    receiver = await startOtlpJsonReceiver();
    const env = { NEXT_TELEMETRY_DISABLED: '1', HOME: process.env.HOME ?? '' };
    const built = await runNode([NEXT, 'build'], app.dir, env, 480_000);
    expect(built.code, built.stdout + built.stderr).to.equal(0);

    const port = await freePort();
    server = spawn(process.execPath, [NEXT, 'start', '-p', String(port), '-H', '127.0.0.1'], {
      cwd: app.dir,
      env: {
        PATH: process.env.PATH ?? '',
        ...env,
        FLAKY_URL: flaky.url,
        OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_BSP_SCHEDULE_DELAY: '200',
      },
    });
    server.stdout!.on('data', (chunk: Buffer) => (serverOutput += chunk.toString()));
    server.stderr!.on('data', (chunk: Buffer) => (serverOutput += chunk.toString()));
    response = await requestWhenReady(`http://127.0.0.1:${port}/api/agent`);
    await waitFor(() => toolSpans().length >= 4);
  });

  after(async () => {
    if (server && server.exitCode === null) {
      server.kill('SIGTERM');
      await once(server, 'exit');
    }
    await receiver?.close();
    await flaky?.close();
    app?.remove();
  });

  const toolSpans = (): ReceivedSpan[] => receiver.spans().filter((span) => span.name === 'ai.toolCall');
  const toolSpan = (name: string) => toolSpans().find((span) => span.attributes['ai.toolCall.name'] === name);

  it("answers as it does untraced: the model sees each tool's failure", () => {
    expect(response).to.deep.equal({
      status: 200,
      body: {
        text: 'done',
        outcomes: [
          'clock: tool-result',
          'orders: tool-error',
          'quotes: tool-error',
          'search: tool-error',
          'weather: tool-error',
        ],
      },
    });
  });

  it('marks each failed tool span with error.type and tool.error_kind, from the error the tool threw', () => {
    const marks = (name: string) => {
      const span = toolSpan(name);
      expect(span, `${name} in ${receiver.spans().map((s) => s.name)}\n${serverOutput}`).to.not.equal(
        undefined,
      );
      return {
        status: span!.statusCode,
        type: span!.attributes['error.type'],
        kind: span!.attributes['tool.error_kind'],
        retryable: span!.attributes['tool.error_retryable'],
      };
    };
    expect(marks('quotes')).to.deep.equal({ status: 2, type: '429', kind: 'rate_limit', retryable: true });
    expect(marks('orders')).to.deep.equal({ status: 2, type: '500', kind: 'transient', retryable: true });
    expect(marks('search')).to.deep.equal({ status: 2, type: 'timeout', kind: 'timeout', retryable: true });
    // A plain Error after a fetch that got a 503: the fetch span, which ends after the tool span, gives the status.
    expect(marks('weather')).to.deep.equal({ status: 2, type: '503', kind: 'transient', retryable: true });
    expect(marks('clock')).to.deep.include({ type: undefined, kind: undefined });
  });

  it('exports the HTTP client spans of the failed calls in the same trace', () => {
    const quotes = toolSpan('quotes')!;
    const http = receiver
      .spans()
      .filter((span) => span.traceId === quotes.traceId && span.kind === 3 && /\/429/.test(span.name));
    expect(
      http,
      receiver
        .spans()
        .map((span) => span.name)
        .join('\n'),
    ).to.have.length.greaterThan(0);
  });

  it('says nothing on the server output about this package: the processors do their job', () => {
    expect(serverOutput).to.not.contain('otel-tool-errors');
  });
});

/** GETs `url`, retrying while the server starts. */
async function requestWhenReady(url: string): Promise<{ status: number; body: unknown }> {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(url);
      return { status: res.status, body: await res.json() };
    } catch (error) {
      if (attempt >= 120) throw error;
      await sleep(500);
    }
  }
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let waited = 0; !condition() && waited < 20_000; waited += 100) await sleep(100);
}
