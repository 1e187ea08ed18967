export {
  ToolMetricsSpanProcessor,
  EXECUTE_TOOL_DURATION_BUCKETS,
  type ToolMetricsSpanProcessorOptions,
} from './tool-metrics-span-processor';
export {
  ToolCallSummary,
  getToolCallSummary,
  type ToolCallRecord,
  type ToolCallSummaryRow,
  type ToolCallSummaryOptions,
} from './tool-call-summary';
