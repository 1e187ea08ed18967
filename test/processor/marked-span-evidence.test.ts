import {
  context,
  INVALID_SPAN_CONTEXT,
  SpanStatusCode,
  trace,
  type AttributeValue,
  type Attributes,
  type SpanContext,
  type SpanStatus,
  type Tracer,
} from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { expect } from 'chai';
import { ToolErrorEnrichingExporter, ToolErrorSpanProcessor, ToolExecutionError } from '../../src';
import { makeClassification } from '../../src/classify/classification';
import { traceToolCall } from '../../src/instrumentation/tool-call/trace-tool-call';
import { markedEvidence, markSpanFailed } from '../../src/tool-span/marked-failure';
import { RETRY_AFTER_HEADERS } from '../../src/semconv';
import type { FlakyServer } from '../helpers/flaky-server';
import { useTestBed } from '../helpers/test-bed';
import { mark, markOf } from '../helpers/tool-failures';

/**
 * The wrapper marks a failed tool span while the tool runs; the processor (or the exporter) ends it
 * with the HTTP calls made under it in hand. A mark from weaker evidence than a failed HTTP call
 * (a generic `Error`, a returned error result) gives way to the call's answer; a stronger one stays.
 * Real fetches to a real server, traced by the real instrumentation-undici.
 */

async function get(server: FlakyServer, path: string): Promise<Response> {
  return fetch(`${server.url}${path}`);
}

/** The usual hand-written tool: fetch, and throw a bare Error when the answer is not ok. */
async function failOnBadStatus(server: FlakyServer, path: string): Promise<unknown> {
  const response = await get(server, path);
  await response.text();
  if (!response.ok) throw new Error('upstream failed');
  return 'ok';
}

const PIPELINES: ReadonlyArray<{
  name: string;
  processors: (exporter: InMemorySpanExporter) => SpanProcessor[];
}> = [
  {
    name: 'ToolErrorSpanProcessor',
    processors: (exporter) => [new ToolErrorSpanProcessor(), new SimpleSpanProcessor(exporter)],
  },
  {
    name: 'ToolErrorEnrichingExporter',
    processors: (exporter) => [new SimpleSpanProcessor(new ToolErrorEnrichingExporter(exporter))],
  },
];

for (const pipeline of PIPELINES) {
  describe(`a marked tool span and the HTTP calls under it (${pipeline.name})`, () => {
    const bed = useTestBed({
      pipeline: pipeline.processors,
      undici: { headersToSpanAttributes: { responseHeaders: [...RETRY_AFTER_HEADERS] } },
    });
    let server: FlakyServer;
    let exporter: InMemorySpanExporter;
    let tracer: Tracer;

    before(() => {
      ({ server, tracer } = bed);
      ({ exporter } = bed.tracing);
    });

    /** Runs `run` as tool `name` through the wrapper, under an agent span; returns the tool span. */
    async function runTool(name: string, run: () => Promise<unknown>): Promise<ReadableSpan> {
      const agent = tracer.startSpan('agent');
      await context
        .with(trace.setSpan(context.active(), agent), () => traceToolCall(tracer, {}, { name }, run))
        .catch(() => undefined);
      agent.end();
      const found = exporter.getFinishedSpans().filter((s) => s.name === `execute_tool ${name}`);
      expect(found).to.have.length(1);
      return found[0]!;
    }

    it("a fetch that got 500, then `throw new Error('upstream failed')`: error.type 500, transient", async () => {
      const span = await runTool('weather', () => failOnBadStatus(server, '/500'));
      expect(markOf(span)).to.deep.equal(mark('500', 'transient', true));
      expect(span.status.message).to.equal('upstream failed');
      // The wrapper's exception event still records what the tool threw.
      expect(span.events.map((e) => e.attributes?.['exception.message'])).to.deep.equal(['upstream failed']);
    });

    it('404 under a generic error: permanent, not retryable', async () => {
      const span = await runTool('lookup', () => failOnBadStatus(server, '/404'));
      expect(markOf(span)).to.include({ type: '404', kind: 'permanent', retryable: false });
    });

    it('429 with Retry-After: rate_limit; without, nothing but the status on the HTTP span: rate_limit too', async () => {
      const limited = await runTool('limited', () => failOnBadStatus(server, '/429?retryAfter=2'));
      expect(markOf(limited)).to.include({ type: '429', kind: 'rate_limit', retryable: true });
      const bare = await runTool('bare', () => failOnBadStatus(server, '/429'));
      expect(markOf(bare)).to.include({ type: '429', kind: 'rate_limit', retryable: true });
    });

    it('counts a call made by a helper under the tool (tool -> helper span -> fetch)', async () => {
      const span = await runTool('helper', () =>
        tracer.startActiveSpan('load forecast', async (helper) => {
          try {
            return await failOnBadStatus(server, '/503');
          } finally {
            helper.end();
          }
        }),
      );
      expect(markOf(span)).to.include({ type: '503', kind: 'transient' });
    });

    it("a nested tool's calls are its own: the outer tool keeps its mark", async () => {
      const outer = await runTool('outer', async () => {
        await traceToolCall(tracer, {}, { name: 'inner' }, () => failOnBadStatus(server, '/503')).catch(
          () => undefined,
        );
        throw new Error('could not plan');
      });
      const inner = exporter.getFinishedSpans().find((s) => s.name === 'execute_tool inner')!;
      expect(markOf(inner)).to.include({ type: '503', kind: 'transient' });
      expect(markOf(outer)).to.include({ type: 'Error', kind: 'internal' });
    });

    it('a returned error result after a 500: the 500, with a status text made from it', async () => {
      const span = await runTool('returned', async () => {
        const response = await get(server, '/500');
        await response.text();
        return { isError: true, content: [{ type: 'text', text: 'the service did not answer' }] };
      });
      expect(markOf(span)).to.deep.equal(mark('500', 'transient', true));
      expect(span.status.message).to.equal('transient: 500');
    });

    it('a stronger mark stays: a validation error thrown after a 500 is invalid_input', async () => {
      const span = await runTool('parse', async () => {
        await (await get(server, '/500')).text();
        throw Object.assign(new Error('bad shape'), { name: 'ZodError' });
      });
      expect(markOf(span)).to.include({ type: 'ZodError', kind: 'invalid_input', executed: false });
    });

    it('a stated type stays: ToolExecutionError after a 500', async () => {
      const span = await runTool('stated', async () => {
        await (await get(server, '/500')).text();
        throw new ToolExecutionError('not allowed', { kind: 'not_permitted' });
      });
      expect(markOf(span)).to.include({ kind: 'not_permitted' });
    });

    it("the last call to end counts, wherever it was made: a helper's 503, then a direct success", async () => {
      const span = await runTool('mixed', async () => {
        const helper = tracer.startSpan('load forecast');
        await context.with(trace.setSpan(context.active(), helper), async () => {
          await (await get(server, '/503')).text();
        });
        // The helper is still open when the tool's own call succeeds.
        await (await get(server, '/ok')).text();
        helper.end();
        throw new Error('upstream failed');
      });
      expect(markOf(span)).to.include({ type: 'Error', kind: 'internal' });
    });

    it('only the last call counts: a 503 retried with success leaves the generic error as it is', async () => {
      const span = await runTool('retried', async () => {
        await (await get(server, '/503')).text();
        await (await get(server, '/ok')).text();
        throw new Error('upstream failed');
      });
      expect(markOf(span)).to.include({ type: 'Error', kind: 'internal' });
    });
  });
}

describe('markSpanFailed keeps the evidence on the span context', () => {
  const classification = makeClassification('transient', '503', 'http_status');

  /** A span stand-in, as the exporter uses: what is written, and the span context given. */
  function writer(spanContext: SpanContext) {
    const written: { attributes: Attributes; status?: SpanStatus } = { attributes: {} };
    return {
      written,
      span: {
        setAttribute(key: string, value: AttributeValue) {
          written.attributes[key] = value;
          return this as never;
        },
        setStatus(status: SpanStatus) {
          written.status = status;
          return this as never;
        },
        spanContext: () => spanContext,
      },
    };
  }

  it('the evidence is read back from the span context', () => {
    const spanContext = { ...INVALID_SPAN_CONTEXT };
    markSpanFailed(writer(spanContext).span, classification, 'upstream failed');
    expect(markedEvidence({ spanContext: () => spanContext } as never)).to.equal('http_status');
  });

  it('a frozen span context loses only the evidence: the mark is written, nothing thrown', () => {
    const spanContext = Object.freeze({ ...INVALID_SPAN_CONTEXT });
    const { span, written } = writer(spanContext);
    expect(() => markSpanFailed(span, classification, 'upstream failed')).not.to.throw();
    expect(written.attributes['error.type']).to.equal('503');
    expect(written.status).to.deep.equal({ code: SpanStatusCode.ERROR, message: 'upstream failed' });
    expect(markedEvidence({ spanContext: () => spanContext } as never)).to.equal(undefined);
  });
});
