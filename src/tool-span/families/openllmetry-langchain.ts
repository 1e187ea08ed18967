import { ATTR_GEN_AI_OPERATION_NAME, GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL } from '../../semconv';
import type { SpanFamily } from './family';

/** OpenLLMetry (Traceloop) LangChain: `execute_tool {name}`, the tool and its result under `traceloop.entity.*`. */
export const OPENLLMETRY_LANGCHAIN: SpanFamily = {
  framework: 'OpenLLMetry LangChain',
  recognise: [
    {
      attributes: { [ATTR_GEN_AI_OPERATION_NAME]: GEN_AI_OPERATION_NAME_VALUE_EXECUTE_TOOL },
      present: ['traceloop.entity.name'],
    },
  ],
  genAiConvention: true,
  toolName: ['traceloop.entity.name', { nameAfter: 'execute_tool ' }],
  result: ['traceloop.entity.output'],
};
