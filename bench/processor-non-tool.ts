import { SpanKind, SpanStatusCode, type Tracer } from '@opentelemetry/api';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '../src/semconv';
import { compare, type Row } from './harness';
import { loadPackage } from './subject';
import { dropProvider, registerMeterProvider } from './tracing';

const { RedactingSpanProcessor, ToolErrorSpanProcessor, ToolMetricsSpanProcessor } = loadPackage();

/**
 * Case 1: what `ToolErrorSpanProcessor` costs on spans that are not tool spans, which is nearly
 * every span of an application: span start + end with the processor in the chain, against the same
 * chain without it. Both chains end in a DropSpanProcessor (bench/tracing.ts). Also the processors
 * as the register installs them, in its order: `ToolErrorSpanProcessor` + `ToolMetricsSpanProcessor`
 * (the pair), and the same behind `RedactingSpanProcessor` (the register's whole chain), with a
 * global MeterProvider set as the register sets one.
 */

const OPS = 100;

/** An HTTP server span, and an HTTP client span that failed: neither is a tool span. */
export function nonToolSpans(tracer: Tracer): () => void {
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

/** The register's processors, in its order (src/register/telemetry.ts), before the exporting end. */
const pair = () => [new ToolErrorSpanProcessor(), new ToolMetricsSpanProcessor()];
const registerChain = () => [new RedactingSpanProcessor(), ...pair()];

/**
 * A provider whose tracer always has a tool span open, as in an agent that is running a tool: the
 * processors then check every ended span's parent.
 */
function withOpenToolSpan(provider: ReturnType<typeof dropProvider>['provider']): { end(): void } {
  return provider.getTracer('bench').startSpan('execute_tool long_running', {
    attributes: {
      [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
      [ATTR_GEN_AI_TOOL_NAME]: 'long_running',
    },
  });
}

export async function run(): Promise<Row[]> {
  registerMeterProvider();
  const chains = {
    'without processor': dropProvider(),
    'with ToolErrorSpanProcessor': dropProvider([new ToolErrorSpanProcessor()]),
    'with ToolErrorSpanProcessor, a tool span open': dropProvider([new ToolErrorSpanProcessor()]),
    "with the register's pair (ToolErrorSpanProcessor + ToolMetricsSpanProcessor)": dropProvider(pair()),
    "with the register's pair, a tool span open": dropProvider(pair()),
    "with the register's chain (RedactingSpanProcessor + the pair)": dropProvider(registerChain()),
    "with the register's chain, a tool span open": dropProvider(registerChain()),
  };
  const open = Object.entries(chains)
    .filter(([name]) => name.endsWith('a tool span open'))
    .map(([, { provider }]) => withOpenToolSpan(provider));
  const rows = await compare({
    case: '1 processor, non-tool spans (per span)',
    baseline: 'without processor',
    opsPerCall: OPS * 2,
    variants: Object.entries(chains).map(([name, { provider }]) => ({
      name,
      fn: nonToolSpans(provider.getTracer('bench')),
      // The register's chain also redacts URLs on every span: no target, measured for scale.
      ...(name === 'without processor' || name.includes('chain') ? {} : { target: 1.05 }),
    })),
  });
  for (const span of open) span.end();
  await Promise.all(Object.values(chains).map(({ provider }) => provider.shutdown()));
  return rows;
}
