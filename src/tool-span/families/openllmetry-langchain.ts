import { EXECUTE_TOOL_OPERATION, type SpanFamily } from './family';

/** OpenLLMetry (Traceloop) LangChain: `execute_tool {name}`, the tool and its result under `traceloop.entity.*`. */
export const OPENLLMETRY_LANGCHAIN: SpanFamily = {
  framework: 'OpenLLMetry LangChain',
  recognise: [{ attributes: EXECUTE_TOOL_OPERATION, present: ['traceloop.entity.name'] }],
  genAiConvention: true,
  toolName: ['traceloop.entity.name', { nameAfter: 'execute_tool ' }],
  result: ['traceloop.entity.output'],
};
