import { ATTR_GEN_AI_OPERATION_NAME, GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL } from '../../semconv';
import type { SpanFamily } from './family';

const EXECUTE_TOOL = { [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL };

/**
 * The Anthropic SDK's tool runner: GenAI `execute_tool` spans named for the kind of tool use.
 * It writes `error.type` and `tool.error_kind` itself; the processor fills only what is missing.
 */
export const ANTHROPIC: SpanFamily = {
  framework: 'Anthropic SDK',
  recognise: [
    { attributes: EXECUTE_TOOL, namePrefix: 'anthropic.custom_tool_use ' },
    { attributes: EXECUTE_TOOL, namePrefix: 'anthropic.mcp_tool_use ' },
  ],
  genAiConvention: true,
  toolName: [{ nameAfter: 'anthropic.custom_tool_use ' }, { nameAfter: 'anthropic.mcp_tool_use ' }],
};
