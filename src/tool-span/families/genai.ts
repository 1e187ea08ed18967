import { EXECUTE_TOOL_OPERATION, type SpanFamily } from './family';

/**
 * The GenAI `execute_tool` convention itself: this package's spans, the AI SDK v7 with
 * `@ai-sdk/otel`, and any framework that follows it without quirks of its own. Some frameworks set
 * `gen_ai.operation.name` only when the call ends, hence the span name too.
 */
export const GENAI: SpanFamily = {
  framework: 'GenAI execute_tool',
  recognise: [{ attributes: EXECUTE_TOOL_OPERATION }, { namePrefix: 'execute_tool ' }],
  genAiConvention: true,
  toolName: [{ nameAfter: 'execute_tool ' }],
};
