import {
  metrics,
  SpanKind,
  SpanStatusCode,
  type Attributes,
  type Counter,
  type Histogram,
  type HrTime,
  type MeterProvider,
} from '@opentelemetry/api';
import { boundErrorType } from '../classify/error-type';
import { isToolErrorKind } from '../classify/kinds';
import { spanHalt } from '../tool-span/halted-call';
import { INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION } from '../tool-span/scope';
import type { ReadableSpanLike } from '../tool-span/span-shape';
import {
  guardMatcher,
  missingToolName,
  recognizeToolSpan,
  type ToolSpanMatcher,
} from '../tool-span/recognition';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_NAME,
  ATTR_GEN_AI_TOOL_TYPE,
  ATTR_MCP_METHOD_NAME,
  ATTR_TOOL_CALL_ATTEMPT,
  ATTR_TOOL_CALL_OUTCOME,
  ATTR_TOOL_ERROR_KIND,
  ATTR_TOOL_ERROR_RETRYABLE,
  ERROR_TYPE_VALUE_OTHER,
  METRIC_GEN_AI_EXECUTE_TOOL_DURATION,
  METRIC_TOOL_ERRORS,
  METRIC_TOOL_RECOVERED_ERRORS,
} from '../semconv';
import { keepCountedFailure, takeCountedFailure, recoveredFailures } from '../tool-span/recovered-failures';
import { BoundedValues } from './bounded-values';
import { getToolCallSummary, type ToolCallSummary } from './tool-call-summary';
import { logger } from '../logger';

/** semantic-conventions-genai gen-ai-metrics.md, `gen_ai.execute_tool.duration`. */
export const EXECUTE_TOOL_DURATION_BUCKETS: readonly number[] = Object.freeze([
  0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48, 40.96, 81.92,
]);

export interface ToolMetricsSpanProcessorOptions {
  /** Where the instruments live. Default: the global MeterProvider, as it is when each span ends. */
  meterProvider?: MeterProvider;
  /** Default: the process-wide summary from `getToolCallSummary()`. */
  summary?: ToolCallSummary;
  /** Distinct `gen_ai.tool.name` values on the metrics before `_OTHER`. Default 100. */
  maxToolNames?: number;
  /** Counts more spans as tool spans; give it the same matcher as `ToolErrorSpanProcessor`. */
  isToolSpan?: ToolSpanMatcher;
}

/** An ended span, typed structurally like `ToolErrorSpanProcessor`'s so that 2.x and 3.x SDK spans fit. */
type EndedSpanLike = ReadableSpanLike & { readonly duration: HrTime };

interface Instruments {
  provider: MeterProvider;
  duration: Histogram;
  errors: Counter;
  recovered: Counter;
}

/**
 * `tool.call.attempt` on the metrics: 2 to this; later attempts are recorded as this one ("this
 * many or more"), so that a tool retried without end adds no series.
 */
export const MAX_METRIC_ATTEMPT = 5;

/**
 * Records `gen_ai.execute_tool.duration` and `tool.errors` from every tool span, and fills the
 * in-process summary. A stopped call (`tool.call.outcome`) is timed with that attribute, never
 * counted as an error. It reads spans in `onEnd`, after every processor's `onEnding`, so it sees the
 * attributes `ToolErrorSpanProcessor` added, on our spans and on frameworks' native ones alike.
 */
export class ToolMetricsSpanProcessor {
  private readonly meterProvider: MeterProvider | undefined;
  private readonly summary: ToolCallSummary;
  private readonly toolNames: BoundedValues;
  private readonly isToolSpan: ToolSpanMatcher | undefined;
  private instruments: Instruments | undefined;

  constructor(options: ToolMetricsSpanProcessorOptions = {}) {
    this.meterProvider = options.meterProvider;
    this.summary = options.summary ?? getToolCallSummary();
    this.toolNames = new BoundedValues(options.maxToolNames ?? 100, 'ToolMetricsSpanProcessor maxToolNames');
    this.isToolSpan = guardMatcher(options.isToolSpan, 'ToolMetricsSpanProcessor');
  }

  onStart(): void {}

  onEnd(span: EndedSpanLike): void {
    try {
      this.record(span);
    } catch (err) {
      logger.error('could not record tool metrics', err);
    }
  }

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }

  private record(span: EndedSpanLike): void {
    const family = recognizeToolSpan(span, this.isToolSpan);
    if (family === undefined || isMcpServerSpan(span)) return;
    const namedTool = span.attributes[ATTR_GEN_AI_TOOL_NAME];
    const rawToolName =
      typeof namedTool === 'string' && namedTool !== ''
        ? namedTool
        : (missingToolName(span, family) ?? ERROR_TYPE_VALUE_OTHER);
    const toolName = this.toolNames.admit(rawToolName);
    const durationSeconds = span.duration[0] + span.duration[1] / 1e9;
    const rawErrorType = span.attributes[ATTR_ERROR_TYPE];
    // A call the framework stopped (paused, denied, handed off) is no failure, whatever else it says.
    const halt = spanHalt(span);
    const failed =
      halt === undefined && (span.status.code === SpanStatusCode.ERROR || rawErrorType !== undefined);

    const attributes: Attributes = { [ATTR_GEN_AI_TOOL_NAME]: toolName };
    // Recommended by the metric's definition; three known values, so the cardinality stays bounded.
    const toolType = span.attributes[ATTR_GEN_AI_TOOL_TYPE];
    if (toolType === 'function' || toolType === 'extension' || toolType === 'datastore')
      attributes[ATTR_GEN_AI_TOOL_TYPE] = toolType;
    if (halt !== undefined) attributes[ATTR_TOOL_CALL_OUTCOME] = halt;
    const attempt = span.attributes[ATTR_TOOL_CALL_ATTEMPT];
    if (typeof attempt === 'number' && Number.isInteger(attempt) && attempt > 1)
      attributes[ATTR_TOOL_CALL_ATTEMPT] = Math.min(attempt, MAX_METRIC_ATTEMPT);
    let errorKind: string | undefined;
    if (failed) {
      const rawKind = span.attributes[ATTR_TOOL_ERROR_KIND];
      const errorType = boundErrorType(
        typeof rawErrorType === 'string' ? rawErrorType : ERROR_TYPE_VALUE_OTHER,
      );
      attributes[ATTR_ERROR_TYPE] = errorType;
      if (rawKind !== undefined) {
        errorKind = isToolErrorKind(rawKind) ? rawKind : ERROR_TYPE_VALUE_OTHER;
        attributes[ATTR_TOOL_ERROR_KIND] = errorKind;
      }
    }

    const { duration, errors, recovered } = this.currentInstruments();
    duration.record(durationSeconds, attributes);
    if (failed) {
      errors.add(1, attributes);
      // For the attempt that may recover it (recovered-failures.ts).
      keepCountedFailure(span.spanContext(), {
        toolName,
        errorType: attributes[ATTR_ERROR_TYPE] as string,
        errorKind,
      });
    } else if (halt === undefined) this.countRecovered(span, recovered);

    const retryable = span.attributes[ATTR_TOOL_ERROR_RETRYABLE];
    this.summary.record({
      toolName,
      durationSeconds,
      errorType: attributes[ATTR_ERROR_TYPE] as string | undefined,
      errorKind,
      retryable: typeof retryable === 'boolean' ? retryable : undefined,
      halt,
    });
  }

  /** A successful attempt: each failed attempt before it that `tool.errors` counted is recovered. */
  private countRecovered(span: EndedSpanLike, recovered: Counter): void {
    const failures = recoveredFailures(span.spanContext());
    if (failures === undefined) return;
    for (const failed of failures) {
      const counted = takeCountedFailure(failed);
      if (counted === undefined) continue;
      const attributes: Attributes = {
        [ATTR_GEN_AI_TOOL_NAME]: counted.toolName,
        [ATTR_ERROR_TYPE]: counted.errorType,
      };
      if (counted.errorKind !== undefined) attributes[ATTR_TOOL_ERROR_KIND] = counted.errorKind;
      recovered.add(1, attributes);
    }
  }

  // The api has no proxy MeterProvider: a meter taken before the SDK registers stays a no-op for
  // good. Looking the provider up per span (a global read) lets a later registration take effect.
  private currentInstruments(): Instruments {
    const provider = this.meterProvider ?? metrics.getMeterProvider();
    if (this.instruments?.provider === provider) return this.instruments;
    const meter = provider.getMeter(INSTRUMENTATION_NAME, INSTRUMENTATION_VERSION);
    this.instruments = {
      provider,
      duration: meter.createHistogram(METRIC_GEN_AI_EXECUTE_TOOL_DURATION, {
        description: 'Duration of tool executions.',
        unit: 's',
        advice: { explicitBucketBoundaries: [...EXECUTE_TOOL_DURATION_BUCKETS] },
      }),
      errors: meter.createCounter(METRIC_TOOL_ERRORS, {
        description: 'Tool executions that ended in error.',
        unit: '{error}',
      }),
      recovered: meter.createCounter(METRIC_TOOL_RECOVERED_ERRORS, {
        description: 'Failed tool executions that a later attempt of the same call recovered (experimental).',
        unit: '{error}',
      }),
    };
    return this.instruments;
  }
}

/**
 * The server side of an MCP call is not counted: the calling agent's span records the call, and
 * the MCP conventions give the server its own metric (`mcp.server.operation.duration`), so a call
 * with both sides in one process is counted once.
 */
function isMcpServerSpan(span: ReadableSpanLike): boolean {
  return span.kind === SpanKind.SERVER && span.attributes[ATTR_MCP_METHOD_NAME] !== undefined;
}
