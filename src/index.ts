export * from './classify';
export { ToolExecutionError, ToolErrorType, formatToolErrorForModel, type ToolExecutionErrorOptions } from './errors';
export * as semconv from './semconv';
export { scrubMessage, redactForCapture } from './redact';
