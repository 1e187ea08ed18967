export * from './classify';
export {
  ToolExecutionError,
  ToolErrorType,
  formatToolErrorForModel,
  type ToolExecutionErrorOptions,
} from './errors';
export * as semconv from './semconv';
export { scrubMessage } from './redact/text';
export { redactForCapture } from './redact/capture';
export * from './metrics';
export * from './processor';
export { ToolInstrumentation } from './instrumentation/tool-instrumentation';
export { TOOL_FRAMEWORK_NAMES } from './instrumentation/adapters';
export type {
  ToolInstrumentationConfig,
  InstrumentToolOptions,
  ToolCallInfo,
  ToolCallOutcome,
} from './instrumentation/types';
export { loaderHookInclude } from './instrumentation/loader-hook-include';
export { instrumentTool } from './instrumentation/instrument-tool';
export { recordToolError } from './instrumentation/tool-call/trace-tool-call';
