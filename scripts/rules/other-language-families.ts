import { EXECUTE_TOOL_OPERATION, type SpanFamily } from '../../src/tool-span/families/family';

/**
 * Other languages' GenAI `execute_tool` spans that record more than the convention (a result under
 * their own name): the rules file puts these just before the GenAI family, which would take them.
 */
export const OTHER_LANGUAGE_GENAI_FAMILIES: readonly Omit<SpanFamily, 'readErrorResult'>[] = [
  {
    // Spring AI (Java): its tool-call observations as spans, `execute_tool {name}` with
    // `spring.ai.kind=tool_call`; with `spring.ai.tools.observations.include-content=true` the
    // tool's result (a returned error, or by default a thrown error's message) is in
    // `spring.ai.tool.call.result`.
    framework: 'Spring AI (Java)',
    recognise: [{ attributes: { ...EXECUTE_TOOL_OPERATION, 'spring.ai.kind': 'tool_call' } }],
    genAiConvention: true,
    toolName: ['spring.ai.tool.definition.name', { nameAfter: 'execute_tool ' }],
    callId: ['spring.ai.tool.call.id'],
    result: ['spring.ai.tool.call.result'],
  },
];

/**
 * Tool spans of instrumentations in other languages that none of the package's own families
 * covers, for the collector processor only: the package's families come first in the rules file,
 * so these match only what those leave.
 */
export const OTHER_LANGUAGE_FAMILIES: readonly Omit<SpanFamily, 'readErrorResult'>[] = [
  {
    // OpenLLMetry Python's `@tool` decorator: `{name}.tool`, `traceloop.span.kind=tool`, the
    // result under `traceloop.entity.output`.
    framework: 'OpenLLMetry (Python, traceloop.span.kind=tool)',
    recognise: [{ attributes: { 'traceloop.span.kind': 'tool' } }],
    toolName: ['traceloop.entity.name'],
    result: ['traceloop.entity.output'],
  },
  {
    // The MCP Python SDK's own server spans (`mcp.request` with the tool's name).
    framework: 'MCP Python SDK',
    recognise: [{ nameEquals: 'mcp.request', present: ['mcp.tool.name'] }],
    toolName: ['mcp.tool.name'],
    mcpToolCall: { flag: 'mcp.tool.result.is_error', text: 'mcp.tool.result.content' },
  },
  {
    // Genkit for Go (and JavaScript's multipart tools): tool actions of type `tool.v2`, named by
    // the tool; `genkit:output` holds the tool's response, `{"output": ..., "content": [...]}`.
    framework: 'Genkit (tool.v2: Go, multipart tools)',
    recognise: [{ attributes: { 'genkit:metadata:subtype': 'tool.v2', 'genkit:type': 'action' } }],
    toolName: ['genkit:name', { wholeName: true }],
    result: ['genkit:output'],
  },
];
