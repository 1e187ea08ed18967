import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '../src/semconv';
import { compare, type Row } from './harness';
import { loadPackage } from './subject';
import { dropProvider } from './tracing';

const { ToolErrorSpanProcessor } = loadPackage();

/**
 * Case 1: what `ToolErrorSpanProcessor` costs on spans that are not tool spans, which is nearly
 * every span of an application: span start + end with the processor in the chain, against the same
 * chain without it. Both chains end in a DropSpanProcessor (bench/tracing.ts).
 */

const OPS = 100;

/** An HTTP server span, and an HTTP client span that failed: neither is a tool span. */
function nonToolSpans(tracer: Tracer): () => void {
  return () => {
    for (let i = 0; i < OPS; i++) {
      const server = tracer.startSpan('GET /users/:id', {
        kind: SpanKind.SERVER,
        attributes: { 'http.request.method': 'GET', 'http.route': '/users/:id', 'url.scheme': 'http' },
      });
      server.setAttribute('http.response.status_code', 200);
      server.end();
      const client = tracer.startSpan('GET', {
        kind: SpanKind.CLIENT,
        attributes: { 'http.request.method': 'GET', 'server.address': 'api.example.com' },
      });
      client.setAttribute('http.response.status_code', 503);
      client.setAttribute('error.type', '503');
      client.setStatus({ code: SpanStatusCode.ERROR });
      client.end();
    }
  };
}

export async function run(): Promise<Row[]> {
  const plain = dropProvider();
  const processed = dropProvider([new ToolErrorSpanProcessor()]);
  // A second processor instance whose provider always has a tool span open, as in an agent that
  // is running a tool: the processor then checks every ended span's parent.
  const busy = dropProvider([new ToolErrorSpanProcessor()]);
  const openTool = busy.provider.getTracer('bench').startSpan('execute_tool long_running', {
    attributes: {
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
      [ATTR_GEN_AI_TOOL_NAME]: 'long_running',
    },
  });
  const rows = await compare({
    case: '1 processor, non-tool spans (per span)',
    baseline: 'without processor',
    opsPerCall: OPS * 2,
    variants: [
      { name: 'without processor', fn: nonToolSpans(plain.provider.getTracer('bench')) },
      {
        name: 'with ToolErrorSpanProcessor',
        fn: nonToolSpans(processed.provider.getTracer('bench')),
        target: 1.05,
      },
      {
        name: 'with ToolErrorSpanProcessor, a tool span open',
        fn: nonToolSpans(busy.provider.getTracer('bench')),
        target: 1.05,
      },
    ],
  });
  openTool.end();
  await Promise.all([plain, processed, busy].map(({ provider }) => provider.shutdown()));
  return rows;
}
