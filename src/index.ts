export * from './classify';
export {
  ToolExecutionError,
  ToolErrorType,
  formatToolErrorForModel,
  type ToolExecutionErrorOptions,
} from './errors';
export * as semconv from './semconv';
export { scrubMessage, redactForCapture } from './redact/text';
export * from './metrics';
export * from './processor';
export { ToolInstrumentation, TOOL_FRAMEWORK_NAMES } from './instrumentation/tool-instrumentation';
export type { ToolInstrumentationConfig } from './instrumentation/config';
export { loaderHookInclude } from './instrumentation/loader-hook-include';
export { instrumentTool, type InstrumentToolOptions } from './instrumentation/instrument-tool';
export {
  recordToolError,
  type ToolCallInfo,
  type ToolCallOutcome,
} from './instrumentation/tool-call/trace-tool-call';
