import { ATTR_GEN_AI_OPERATION_NAME, GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL } from '../../semconv';
import type { SpanFamily } from './family';

const TOOL_RESPONSE = 'gcp.vertex.agent.tool_response';

/**
 * Google ADK: `execute_tool {name}`, with `gen_ai.*` set only when the tool returned, and the
 * returned value in its own attribute.
 */
export const GOOGLE_ADK: SpanFamily = {
  framework: 'Google ADK',
  recognise: [
    {
      attributes: { [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL },
      present: [TOOL_RESPONSE],
    },
  ],
  genAiConvention: true,
  toolName: [{ nameAfter: 'execute_tool ' }],
  result: [TOOL_RESPONSE],
};
