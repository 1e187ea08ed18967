import { EXECUTE_TOOL_OPERATION, type SpanFamily } from './family';

const TOOL_RESPONSE = 'gcp.vertex.agent.tool_response';

/**
 * Google ADK: `execute_tool {name}`, with `gen_ai.*` set only when the tool returned, and the
 * returned value in its own attribute.
 */
export const GOOGLE_ADK: SpanFamily = {
  framework: 'Google ADK',
  recognise: [{ attributes: EXECUTE_TOOL_OPERATION, present: [TOOL_RESPONSE] }],
  genAiConvention: true,
  toolName: [{ nameAfter: 'execute_tool ' }],
  result: [TOOL_RESPONSE],
};
