import { EXECUTE_TOOL_OPERATION, type SpanFamily } from './family';

/**
 * The Anthropic SDK's tool runner: GenAI `execute_tool` spans named for the kind of tool use.
 * It writes `error.type` and `tool.error_kind` itself; the processor fills only what is missing.
 */
export const ANTHROPIC: SpanFamily = {
  framework: 'Anthropic SDK',
  recognise: [
    { attributes: EXECUTE_TOOL_OPERATION, namePrefix: 'anthropic.custom_tool_use ' },
    { attributes: EXECUTE_TOOL_OPERATION, namePrefix: 'anthropic.mcp_tool_use ' },
  ],
  genAiConvention: true,
  toolName: [{ nameAfter: 'anthropic.custom_tool_use ' }, { nameAfter: 'anthropic.mcp_tool_use ' }],
};
