import { context, SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import {
  InMemorySpanExporter,
  SimpleSpanProcessor,
  BasicTracerProvider,
} from '@opentelemetry/sdk-trace-base';
import { readToolSpanFailure } from '../src/processor/span-evidence';
import { lastException } from '../src/tool-span/span-shape';
import { recognizeToolSpan } from '../src/tool-span/recognition';
import { GENAI } from '../src/tool-span/families/genai';
import {
  ATTR_GEN_AI_OPERATION_NAME,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
} from '../src/semconv';
import { markSpanFailed } from '../src/tool-span/marked-failure';
import { compare, formatNs, median, measure, type Row } from './harness';
import { loadPackage } from './subject';
import { consume, dropProvider } from './tracing';

const { classifyToolError, scrubMessage, ToolErrorSpanProcessor } = loadPackage();

/**
 * Case 2: failed tool spans that a framework created and left without `error.type` (as OpenLLMetry,
 * OpenInference and the AI SDK do), so the processor does the whole job. For each kind of evidence,
 * the same span work with and without the processor; then the processor's steps measured alone.
 */

const OPS = 100;
const TOOL_ATTRIBUTES = {
  [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL,
  [ATTR_GEN_AI_TOOL_NAME]: 'get_weather',
};

/** `recordException` writes `exception.type = code ?? name`, as a framework's span gets it. */
const CONNECTION_ERROR = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), {
  code: 'ECONNREFUSED',
});

type Scenario = (tracer: Tracer) => void;

const SCENARIOS: Record<string, Scenario> = {
  // The framework recorded the exception and set status ERROR.
  'exception event': (tracer) => {
    const span = tracer.startSpan('execute_tool get_weather', { attributes: TOOL_ATTRIBUTES });
    span.recordException(CONNECTION_ERROR);
    span.setStatus({ code: SpanStatusCode.ERROR, message: CONNECTION_ERROR.message });
    span.end();
  },
  // The tool's HTTP call failed with 503 (an HTTP client span under it); the tool span has only
  // status ERROR and a vague message.
  'HTTP child span 503': (tracer) => {
    const span = tracer.startSpan('execute_tool get_weather', { attributes: TOOL_ATTRIBUTES });
    const child = tracer.startSpan(
      'GET',
      { kind: SpanKind.CLIENT, attributes: { [ATTR_HTTP_REQUEST_METHOD]: 'GET' } },
      trace.setSpan(context.active(), span),
    );
    child.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, 503);
    child.setAttribute('error.type', '503');
    child.setStatus({ code: SpanStatusCode.ERROR });
    child.end();
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'weather lookup failed' });
    span.end();
  },
  // Only a status message says what happened.
  'status message only': (tracer) => {
    const span = tracer.startSpan('execute_tool get_weather', { attributes: TOOL_ATTRIBUTES });
    span.setStatus({ code: SpanStatusCode.ERROR, message: 'HTTP 429 Too Many Requests' });
    span.end();
  },
  // Recognition alone: a tool span that succeeded.
  'tool span OK (recognition only)': (tracer) => {
    tracer.startSpan('execute_tool get_weather', { attributes: TOOL_ATTRIBUTES }).end();
  },
};

function repeat(scenario: Scenario, tracer: Tracer): () => void {
  return () => {
    for (let i = 0; i < OPS; i++) scenario(tracer);
  };
}

/** One ended tool span of the scenario, as the processor sees it in `onEnding`. */
function endedToolSpan(scenario: Scenario) {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  scenario(provider.getTracer('bench'));
  const span = exporter.getFinishedSpans().find((s) => s.name.startsWith('execute_tool'));
  if (!span) throw new Error('the scenario made no tool span');
  return span;
}

export async function run(): Promise<Row[]> {
  const plain = dropProvider();
  const processed = dropProvider([new ToolErrorSpanProcessor()]);
  const plainTracer = plain.provider.getTracer('bench');
  const processedTracer = processed.provider.getTracer('bench');
  const rows: Row[] = [];
  for (const [name, scenario] of Object.entries(SCENARIOS)) {
    rows.push(
      ...(await compare({
        case: `2 processor, failed tool span: ${name}`,
        baseline: 'without processor',
        opsPerCall: OPS,
        variants: [
          { name: 'without processor', fn: repeat(scenario, plainTracer) },
          { name: 'with ToolErrorSpanProcessor', fn: repeat(scenario, processedTracer) },
        ],
      })),
    );
  }
  rows.push(...(await breakdown()));
  await Promise.all([plain.provider.shutdown(), processed.provider.shutdown()]);
  return rows;
}

/**
 * The processor's steps on the 'exception event' span, each alone: recognising the span, reading
 * its evidence (which includes classifying it), the classifier alone on the same input, and the
 * writes (four attributes and the status, whose message is scrubbed). The internal steps are not
 * exported, so they run from src/ through tsx, which is slower than the bundle: read them as
 * proportions.
 */
async function breakdown(): Promise<Row[]> {
  const ended = endedToolSpan(SCENARIOS['exception event']!);
  const exception = lastException(ended);
  const classifierInput = { name: exception?.type, code: exception?.type, message: ended.status.message };
  const classification = classifyToolError(classifierInput);
  const { provider } = dropProvider();
  // A live span: the writes overwrite the same attributes, so the span does not grow.
  const live = provider
    .getTracer('bench')
    .startSpan('execute_tool get_weather', { attributes: TOOL_ATTRIBUTES });
  const step = (fn: () => unknown) => () => {
    for (let i = 0; i < OPS; i++) consume(fn());
  };
  const steps = {
    recognizeToolSpan: step(() => recognizeToolSpan(ended, undefined)),
    'readToolSpanFailure (evidence + classification)': step(() =>
      readToolSpanFailure(ended, GENAI, undefined),
    ),
    'classifyToolError on the span evidence': step(() => classifyToolError(classifierInput)),
    'markSpanFailed (4 attributes + status)': step(() =>
      markSpanFailed(live, classification, ended.status.message),
    ),
    'scrubMessage (inside markSpanFailed)': step(() => scrubMessage(ended.status.message!)),
  };
  const samples = await measure(
    '2 breakdown',
    Object.entries(steps).map(([name, fn]) => ({ name, fn })),
    OPS,
  );
  live.end();
  await provider.shutdown();
  return [...samples].map(([name, own]) => ({
    case: '2 processor breakdown (exception event span)',
    variant: name,
    value: formatNs(median(own.map((s) => s.nsPerOp))),
    spread: `±${median(own.map((s) => s.rme)).toFixed(1)}%`,
    ratio: '',
    added: '',
    target: '',
    verdict: '' as const,
  }));
}
