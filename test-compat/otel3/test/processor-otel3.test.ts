import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  context,
  diag,
  DiagLogLevel,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import {
  BatchSpanProcessor,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  TracerProvider,
  type ReadableSpan,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';
import { expect } from 'chai';
import { RedactingSpanProcessor, ToolErrorEnrichingExporter, ToolErrorSpanProcessor } from '../../../src';

/**
 * The processor on the OpenTelemetry JS 3.x line: `@opentelemetry/sdk-trace` 3.x with
 * `@opentelemetry/api` 1.10 (which the repo sources also resolve to here, see tsconfig.json).
 * The spans have the shapes the frameworks' own spans have (see test/processor/ for the frameworks
 * themselves on 2.x); what is under test here is the SDK line: onEnding, status rules, exporters.
 */

interface Run {
  spans: ReadableSpan[];
  diagnostics: string[];
}

/** Makes the tool spans of one agent turn on a 3.x provider with these processors. */
async function runTurn(processors: (exporter: InMemorySpanExporter) => SpanProcessor[]): Promise<Run> {
  const diagnostics: string[] = [];
  const keep = (message: string) => diagnostics.push(message);
  diag.setLogger(
    { error: keep, warn: keep, info: () => {}, debug: () => {}, verbose: () => {} },
    DiagLogLevel.WARN,
  );
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({ spanProcessors: processors(exporter) });
  const tracer = provider.getTracer('otel3-compat');
  const endTool = (name: string, attributes: Attributes, body: (span: Span) => void) => {
    const span = tracer.startSpan(name, { attributes });
    body(span);
    span.end();
  };

  // A generic throw whose HTTP child got a 503, as instrumentation-undici records it.
  endTool(
    'execute_tool search',
    { 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'search' },
    (tool) => {
      const child = tracer.startSpan(
        'GET',
        {
          kind: SpanKind.CLIENT,
          attributes: { 'http.request.method': 'GET', 'http.response.status_code': 503, 'error.type': '503' },
        },
        trace.setSpan(context.active(), tool),
      );
      child.setStatus({ code: SpanStatusCode.ERROR });
      child.end();
      tool.recordException(new Error('request failed'));
      tool.setStatus({ code: SpanStatusCode.ERROR, message: 'request failed' });
    },
  );
  // AI SDK v6: a returned MCP error result, status left UNSET.
  endTool(
    'ai.toolCall',
    {
      'ai.toolCall.name': 'files',
      'ai.toolCall.result': JSON.stringify({
        isError: true,
        content: [{ type: 'text', text: 'permission denied' }],
      }),
    },
    () => {},
  );
  // OpenInference: status OK set on a returned error result.
  endTool(
    'lookup',
    {
      'openinference.span.kind': 'TOOL',
      'tool.name': 'lookup',
      'output.value': JSON.stringify({ success: false, error: 'Request timed out' }),
    },
    (span) => span.setStatus({ code: SpanStatusCode.OK }),
  );
  endTool('execute_tool clock', { 'gen_ai.operation.name': 'execute_tool' }, () => {});

  await provider.forceFlush();
  const spans = exporter.getFinishedSpans();
  await provider.shutdown();
  diag.disable();
  return { spans, diagnostics };
}

function toolSpans(run: Run): Record<string, ReadableSpan> {
  return Object.fromEntries(
    run.spans
      .filter((span) => span.kind !== SpanKind.CLIENT)
      .map((span) => [String(span.attributes['gen_ai.tool.name']), span]),
  );
}

function expectMarked(run: Run): void {
  const spans = toolSpans(run);
  expect(Object.keys(spans).sort()).to.deep.equal(['clock', 'files', 'lookup', 'search']);
  expect(spans.search.attributes).to.include({
    'error.type': '503',
    'tool.error_kind': 'transient',
    'tool.error_retryable': true,
  });
  expect(spans.search.status).to.deep.equal({ code: SpanStatusCode.ERROR, message: 'request failed' });
  expect(spans.files.status.code).to.equal(SpanStatusCode.ERROR);
  expect(spans.files.attributes).to.include({ 'error.type': 'tool_error', 'tool.error_kind': 'auth' });
  expect(spans.lookup.status.code).to.equal(SpanStatusCode.ERROR);
  expect(spans.lookup.attributes).to.include({ 'error.type': 'timeout', 'tool.error_kind': 'timeout' });
  expect(spans.clock.status.code).to.equal(SpanStatusCode.UNSET);
  expect(spans.clock.attributes).to.not.have.property('error.type');
}

describe('ToolErrorSpanProcessor on @opentelemetry/sdk-trace 3.x', () => {
  it('is running against the 3.x SDK and api 1.10', () => {
    const versionOf = (name: string) =>
      JSON.parse(readFileSync(join(__dirname, '../node_modules', name, 'package.json'), 'utf8'))
        .version as string;
    expect(versionOf('@opentelemetry/sdk-trace')).to.match(/^3\./);
    expect(versionOf('@opentelemetry/api')).to.match(/^1\.10\./);
  });

  it('marks failed tool spans in onEnding, with no warnings', async () => {
    const run = await runTurn((exporter) => [
      new ToolErrorSpanProcessor(),
      new SimpleSpanProcessor({ exporter }),
    ]);
    expectMarked(run);
    expect(run.diagnostics).to.deep.equal([]);
  });

  it('exports identical attributes whether it is first or last', async () => {
    const first = toolSpans(
      await runTurn((exporter) => [new ToolErrorSpanProcessor(), new SimpleSpanProcessor({ exporter })]),
    );
    const last = toolSpans(
      await runTurn((exporter) => [new SimpleSpanProcessor({ exporter }), new ToolErrorSpanProcessor()]),
    );
    for (const name of Object.keys(first)) {
      expect(last[name].attributes, name).to.deep.equal(first[name].attributes);
      expect(last[name].status, name).to.deep.equal(first[name].status);
    }
  });

  it('marks the same through ToolErrorEnrichingExporter behind a BatchSpanProcessor', async () => {
    const run = await runTurn((exporter) => [
      new BatchSpanProcessor({ exporter: new ToolErrorEnrichingExporter(exporter) }),
    ]);
    expectMarked(run);
  });

  it('keeps its tracking bounded on 3.x', async () => {
    const processor = new ToolErrorSpanProcessor();
    const provider = new TracerProvider({ spanProcessors: [processor] });
    const tracer = provider.getTracer('otel3-compat');
    const open = Array.from({ length: 12_000 }, (_, i) => tracer.startSpan(`execute_tool t${i}`));
    expect(processor._openToolSpanCount).to.equal(10_000);
    for (const span of open) span.end();
    expect(processor._openToolSpanCount).to.equal(0);
    await provider.shutdown();
  });

  it("redacts a framework tool span's exception event and every span's URLs in onEnding on 3.x", async () => {
    const exporter = new InMemorySpanExporter();
    const provider = new TracerProvider({
      spanProcessors: [
        new RedactingSpanProcessor(),
        new ToolErrorSpanProcessor(),
        new SimpleSpanProcessor({ exporter }),
      ],
    });
    const tracer = provider.getTracer('otel3-compat');
    const tool = tracer.startSpan('ai.toolCall', { attributes: { 'ai.toolCall.name': 'lookup' } });
    tracer
      .startSpan(
        'GET',
        {
          kind: SpanKind.CLIENT,
          attributes: { 'url.full': 'https://u:p@api.example.com/s?q=Lyon&api_key=k3y' },
        },
        trace.setSpan(context.active(), tool),
      )
      .end();
    tool.recordException(new Error('failed with token=abc123 and glpat-xK9mQ2vR7tYpL4nW8sZe'));
    tool.setStatus({ code: SpanStatusCode.ERROR });
    tool.end();
    const spans = exporter.getFinishedSpans();
    const http = spans.find((span) => span.name === 'GET')!;
    expect(http.attributes['url.full']).to.equal(
      'https://REDACTED:REDACTED@api.example.com/s?q=REDACTED&api_key=REDACTED',
    );
    const toolCall = spans.find((span) => span.name === 'ai.toolCall')!;
    expect(toolCall.events[0]!.attributes!['exception.message']).to.equal(
      'failed with token=[REDACTED] and [REDACTED]',
    );
    expect(String(toolCall.events[0]!.attributes!['exception.stacktrace'])).not.to.include('glpat-');
    await provider.shutdown();
  });
});
