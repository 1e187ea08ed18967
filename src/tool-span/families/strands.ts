import { EXECUTE_TOOL_OPERATION, type SpanFamily } from './family';

/** Strands' own names: its result's status, and the event whose `message` is the result's content. */
const TOOL_STATUS = 'gen_ai.tool.status';
const RESULT_EVENT = 'gen_ai.choice';
const RESULT_MESSAGE = 'message';

/**
 * Strands Agents: `execute_tool {name}`. A call answered with an error result but nothing thrown
 * (an unknown tool, a tool returning `status: 'error'`) ends without status or exception, with
 * `gen_ai.tool.status=error`; the result's text is in its `gen_ai.choice` event.
 */
export const STRANDS: SpanFamily = {
  framework: 'Strands Agents',
  recognise: [{ attributes: EXECUTE_TOOL_OPERATION, present: [TOOL_STATUS] }],
  genAiConvention: true,
  toolName: [{ nameAfter: 'execute_tool ' }],
  readErrorResult(span) {
    if (span.attributes[TOOL_STATUS] !== 'error') return undefined;
    const message = span.events.find((e) => e.name === RESULT_EVENT)?.attributes?.[RESULT_MESSAGE];
    return { text: typeof message === 'string' ? message : undefined };
  },
};
