import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { context, SpanStatusCode } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { tool } from 'ai';
import { expect } from 'chai';
import { z } from 'zod';
import { ToolErrorEnrichingExporter } from '../../src';
import { startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import { runToolsWithAiSdk } from './scripted-agent';

/** Tool spans get their HTTP child spans' parent links only with a context manager; one per process. */
function ensureContextManager(): void {
  const key = Symbol.for('otel-tool-errors.test.contextManager');
  const store = globalThis as Record<symbol, unknown>;
  if (store[key]) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  store[key] = true;
}

/** An OTLP/HTTP JSON receiver on 127.0.0.1 that keeps every span it is sent. */
async function startOtlpReceiver(): Promise<{
  server: Server;
  url: string;
  spans: Array<Record<string, any>>;
}> {
  const spans: Array<Record<string, any>> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      for (const resource of JSON.parse(body).resourceSpans ?? []) {
        for (const scope of resource.scopeSpans ?? []) spans.push(...scope.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`, spans };
}

const empty = z.object({});

/** Real AI SDK tools: one fails on a 503 from a real fetch, one returns an error, one works. */
function tools(server: FlakyServer) {
  return {
    unavailable: tool({
      inputSchema: empty,
      execute: async () => {
        const response = await fetch(`${server.url}/503`);
        if (!response.ok) throw new Error('request failed');
      },
    }),
    returned: tool({
      inputSchema: empty,
      execute: async () => ({ isError: true, content: [{ type: 'text', text: 'forbidden' }] }),
    }),
    fine: tool({ inputSchema: empty, execute: async () => 'ok' }),
  };
}

const calls = { unavailable: {}, returned: {}, fine: {} };

/**
 * For SDKs that never call onEnding: the exporter wrapper marks copies of the spans at export.
 * No ToolErrorSpanProcessor is registered here.
 */
describe('ToolErrorEnrichingExporter', () => {
  let server: FlakyServer;
  let undici: UndiciInstrumentation;

  before(async () => {
    ensureContextManager();
    server = await startFlakyServer();
    undici = new UndiciInstrumentation();
  });

  after(async () => {
    undici.disable();
    await server.close();
  });

  it('marks the copies a SimpleSpanProcessor exports, and leaves the SDK spans untouched', async () => {
    const marked = new InMemorySpanExporter();
    const plain = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({
      spanProcessors: [
        new SimpleSpanProcessor(new ToolErrorEnrichingExporter(marked)),
        new SimpleSpanProcessor(plain),
      ],
    });
    undici.setTracerProvider(provider);
    undici.enable();
    await runToolsWithAiSdk(provider.getTracer('test'), tools(server), calls);
    undici.disable();
    const markedSpans = marked.getFinishedSpans();
    const plainSpans = plain.getFinishedSpans();
    // Shutting down empties the in-memory exporters, so it comes after the reads.
    await provider.shutdown();

    const byTool = (spans: ReadableSpan[], name: string) =>
      spans.find((s) => s.name === 'ai.toolCall' && s.attributes['ai.toolCall.name'] === name)!;
    const unavailable = byTool(markedSpans, 'unavailable');
    expect(unavailable.attributes).to.include({
      'error.type': '503',
      'tool.error_kind': 'transient',
      'tool.error_retryable': true,
      'gen_ai.tool.name': 'unavailable',
    });
    const returned = byTool(markedSpans, 'returned');
    expect(returned.status.code).to.equal(SpanStatusCode.ERROR);
    expect(returned.attributes).to.include({ 'error.type': 'tool_error', 'tool.error_kind': 'auth' });
    expect(byTool(markedSpans, 'fine').attributes).to.not.have.property('error.type');

    // The copy is still the same span to an exporter: same context, times and methods.
    const original = byTool(plainSpans, 'unavailable');
    expect(unavailable.spanContext()).to.deep.equal(original.spanContext());
    expect(unavailable.duration).to.deep.equal(original.duration);
    expect(unavailable.instrumentationScope).to.deep.equal(original.instrumentationScope);
    // The SDK's own span, which other processors see, is not marked.
    expect(original.attributes).to.not.have.property('error.type');
    expect(byTool(plainSpans, 'returned').status.code).to.equal(SpanStatusCode.UNSET);
  });

  it('marks what a BatchSpanProcessor sends through the real OTLP/HTTP exporter', async () => {
    const receiver = await startOtlpReceiver();
    const provider = new BasicTracerProvider({
      spanProcessors: [
        new BatchSpanProcessor(new ToolErrorEnrichingExporter(new OTLPTraceExporter({ url: receiver.url }))),
      ],
    });
    undici.setTracerProvider(provider);
    undici.enable();
    await runToolsWithAiSdk(provider.getTracer('test'), tools(server), calls);
    await provider.forceFlush();
    await provider.shutdown();
    undici.disable();
    await new Promise((resolve) => receiver.server.close(resolve));

    const attributesOf = (span: Record<string, any>) =>
      Object.fromEntries(
        (span.attributes as Array<{ key: string; value: Record<string, unknown> }>).map(({ key, value }) => [
          key,
          Object.values(value)[0],
        ]),
      );
    const toolSpans = receiver.spans
      .filter((span) => span.name === 'ai.toolCall')
      .map((span) => ({ span, attributes: attributesOf(span) }));
    const unavailable = toolSpans.find((s) => s.attributes['ai.toolCall.name'] === 'unavailable')!;
    expect(unavailable.attributes).to.include({ 'error.type': '503', 'tool.error_kind': 'transient' });
    expect(unavailable.span.status.code).to.equal(SpanStatusCode.ERROR);
    expect(unavailable.span.spanId).to.match(/^[0-9a-f]{16}$/);
    const returned = toolSpans.find((s) => s.attributes['ai.toolCall.name'] === 'returned')!;
    expect(returned.attributes).to.include({ 'error.type': 'tool_error' });
    expect(returned.span.status.code).to.equal(SpanStatusCode.ERROR);
  });

  it('rejects what is not an exporter with a clear message', () => {
    expect(() => new ToolErrorEnrichingExporter({} as never)).to.throw(TypeError, /expected a SpanExporter/);
  });
});
