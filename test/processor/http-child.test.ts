import { createRequire } from 'node:module';
import { SpanStatusCode, trace } from '@opentelemetry/api';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { tool } from 'ai';
import { expect } from 'chai';
import { z } from 'zod';
import { ToolErrorSpanProcessor } from '../../src';
import { refusedPort, startFlakyServer, type FlakyServer } from '../helpers/flaky-server';
import { ensureContextManager } from '../helpers/tracing';
import { noInputTool, runToolsWithAiSdk } from './scripted-agent';

/**
 * A tool that throws a generic error still gets the HTTP status of its failed call, read from the
 * HTTP client span that the real instrumentation made under the tool span.
 */
describe('ToolErrorSpanProcessor with failed HTTP child spans', () => {
  let server: FlakyServer;
  let exporter: InMemorySpanExporter;
  let provider: BasicTracerProvider;
  let processor: ToolErrorSpanProcessor;

  before(async () => {
    ensureContextManager();
    server = await startFlakyServer();
    exporter = new InMemorySpanExporter();
    processor = new ToolErrorSpanProcessor();
    provider = new BasicTracerProvider({ spanProcessors: [processor, new SimpleSpanProcessor(exporter)] });
  });

  after(async () => {
    await provider.shutdown();
    await server.close();
  });

  const toolSpan = (name: string): ReadableSpan =>
    exporter.getFinishedSpans().find((s) => s.attributes['gen_ai.tool.name'] === name)!;

  describe('fetch, traced by instrumentation-undici, in AI SDK tools', () => {
    let undici: UndiciInstrumentation;
    let deadPort: number;

    before(async () => {
      undici = new UndiciInstrumentation({ headersToSpanAttributes: { responseHeaders: ['retry-after'] } });
      undici.setTracerProvider(provider);
      undici.enable();
      deadPort = await refusedPort();
      const empty = z.object({});
      const failOnBadStatus = async (path: string) => {
        const response = await fetch(`${server.url}${path}`);
        if (!response.ok) throw new Error('request failed');
        return response.json();
      };
      await runToolsWithAiSdk(provider.getTracer('test'), {
        unavailable: noInputTool(() => failOnBadStatus('/503')),
        limited: noInputTool(() => failOnBadStatus('/429?retryAfter=3')),
        refused: tool({
          inputSchema: empty,
          execute: async () => fetch(`http://127.0.0.1:${deadPort}/`).then((r) => r.json()),
        }),
        recovered: tool({
          inputSchema: empty,
          execute: async (): Promise<unknown> => {
            await fetch(`${server.url}/503`);
            await fetch(`${server.url}/ok`);
            throw new TypeError('bad shape');
          },
        }),
        fallback: tool({
          inputSchema: empty,
          execute: async () => {
            const primary = await fetch(`${server.url}/503`);
            return primary.ok ? primary.json() : { source: 'cache' };
          },
        }),
      });
    });

    after(() => undici.disable());

    it('recorded the fetches as children of the tool spans', () => {
      const tool = toolSpan('unavailable');
      const children = exporter
        .getFinishedSpans()
        .filter((s) => s.parentSpanContext?.spanId === tool.spanContext().spanId);
      expect(children.map((s) => s.attributes['http.response.status_code'])).to.deep.equal([503]);
    });

    it('gives a generic "request failed" the 503 of its HTTP child', () => {
      expect(toolSpan('unavailable').attributes).to.include({
        'error.type': '503',
        'tool.error_kind': 'transient',
        'tool.error_retryable': true,
      });
      expect(toolSpan('unavailable').status).to.deep.equal({
        code: SpanStatusCode.ERROR,
        message: 'request failed',
      });
    });

    it('reads Retry-After when the instrumentation captures it: a 429 with it is a rate limit', () => {
      expect(toolSpan('limited').attributes).to.include({
        'error.type': '429',
        'tool.error_kind': 'rate_limit',
      });
    });

    it('prefers the connection error code of the child over the "fetch failed" text', () => {
      expect(toolSpan('refused').attributes).to.include({
        'error.type': 'ECONNREFUSED',
        'tool.error_kind': 'network',
      });
    });

    it('ignores a failed call that the tool retried with success', () => {
      expect(toolSpan('recovered').attributes).to.include({
        'error.type': 'TypeError',
        'tool.error_kind': 'internal',
      });
    });

    it('does not fail a tool that recovered from a failed call', () => {
      expect(toolSpan('fallback').status.code).to.equal(SpanStatusCode.UNSET);
      expect(toolSpan('fallback').attributes).to.not.have.property('error.type');
    });
  });

  describe('http.get, traced by instrumentation-http (old HTTP conventions by default)', () => {
    let httpInstrumentation: HttpInstrumentation;

    before(async () => {
      httpInstrumentation = new HttpInstrumentation();
      httpInstrumentation.setTracerProvider(provider);
      httpInstrumentation.enable();
      // Patching happens when `http` is required after enable().
      const http = createRequire(__filename)('node:http') as typeof import('node:http');
      const tracer = provider.getTracer('test');
      await tracer.startActiveSpan(
        'execute_tool inventory',
        { attributes: { 'gen_ai.operation.name': 'execute_tool' } },
        (span) =>
          new Promise<void>((resolve) => {
            http.get(`${server.url}/503`, (response) => {
              response.resume();
              response.on('end', () => {
                const error = new Error('inventory service failed');
                span.recordException(error);
                span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
                span.end();
                resolve();
              });
            });
          }),
      );
    });

    after(() => httpInstrumentation.disable());

    it('reads http.status_code from the child and fills the tool name from the span name', () => {
      const span = toolSpan('inventory');
      expect(span.attributes).to.include({ 'error.type': '503', 'tool.error_kind': 'transient' });
    });
  });

  // Mocha runs a suite's own tests before its nested suites: this one goes last in its own suite.
  describe('afterwards', () => {
    it('follows no tool span once they have all ended', () => {
      expect(exporter.getFinishedSpans().filter((s) => s.attributes['gen_ai.tool.name'])).to.have.length(6);
      expect(processor._openToolSpanCount).to.equal(0);
      expect(trace.getActiveSpan()).to.equal(undefined);
    });
  });
});
