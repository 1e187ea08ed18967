// The instrumentation: spans for tool calls in the agent frameworks, and for tools of your own.
export { ToolInstrumentation } from './instrumentation/tool-instrumentation';
export { TOOL_FRAMEWORK_NAMES } from './instrumentation/adapters';
export { instrumentTool } from './instrumentation/instrument-tool';
export { recordToolError } from './instrumentation/tool-call/trace-tool-call';
export { loaderHookInclude } from './instrumentation/loader-hook-include';
export type {
  InstrumentToolOptions,
  ToolCallInfo,
  ToolCallOutcome,
  ToolInstrumentationConfig,
} from './instrumentation/types';

// The processors and the exporter: failed tool spans enriched, whoever made them.
export {
  ToolErrorSpanProcessor,
  type ToolErrorSpanProcessorOptions,
} from './processor/tool-error-span-processor';
export {
  ToolErrorEnrichingExporter,
  type SpanExporterLike,
  type ToolErrorEnrichingExporterOptions,
} from './processor/enriching-exporter';
export {
  RedactingSpanProcessor,
  type RedactingSpanProcessorOptions,
} from './processor/redacting-span-processor';
export type { ReadableSpanLike } from './tool-span/span-shape';

// Metrics: the tool-call duration histogram and the in-process summary.
export {
  EXECUTE_TOOL_DURATION_BUCKETS,
  ToolMetricsSpanProcessor,
  type ToolMetricsSpanProcessorOptions,
} from './metrics/tool-metrics-span-processor';
export {
  getToolCallSummary,
  ToolCallSummary,
  type ToolCallRecord,
  type ToolCallSummaryOptions,
  type ToolCallSummaryRow,
} from './metrics/tool-call-summary';

// The classifier, the kinds and the error class an app can throw.
export { classifyToolError } from './classify/classify-error';
export { classifyToolResult } from './classify/result';
export type { ToolErrorClassification } from './classify/classification';
export { EVIDENCE_ORDER, type ClassificationEvidence } from './classify/evidence';
export {
  isToolErrorKind,
  TOOL_ERROR_KIND_MEANINGS,
  TOOL_ERROR_KINDS,
  type ToolErrorKind,
  type ToolErrorKindMeaning,
} from './classify/kinds';
export {
  DEFAULT_ERROR_TYPE_IDLE_MS,
  DEFAULT_MAX_ERROR_TYPES,
  setMaxErrorTypes,
  type MaxErrorTypesOptions,
} from './classify/error-type';
export {
  formatToolErrorForModel,
  ToolErrorType,
  ToolExecutionError,
  type ToolExecutionErrorOptions,
} from './errors';

// The attribute and metric names this package writes and reads.
export * as semconv from './semconv';
