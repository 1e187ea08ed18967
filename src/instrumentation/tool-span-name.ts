/**
 * The name of a span `ToolInstrumentation` starts: `execute_tool {gen_ai.tool.name}`, as the GenAI
 * conventions name it, for the first 100 distinct tool names in the process, then `execute_tool`
 * alone. Tool names can be invented (a model calling a tool that does not exist, an MCP server
 * listing new ones), and every distinct span name is a new operation in trace backends and
 * spanmetrics. The name stays on the span as `gen_ai.tool.name` either way.
 */

export const MAX_TOOL_SPAN_NAMES = 100;
const FIXED_NAME = 'execute_tool';

// Shared through a global symbol so two copies of the package (CJS and ESM) count against one cap.
const NAMES_KEY = Symbol.for('otel-tool-errors.tool-span-names');

function admitted(): Set<string> {
  const holder = globalThis as { [NAMES_KEY]?: Set<string> };
  return (holder[NAMES_KEY] ??= new Set());
}

export function toolSpanName(toolName: string): string {
  const names = admitted();
  if (names.has(toolName)) return `${FIXED_NAME} ${toolName}`;
  if (names.size >= MAX_TOOL_SPAN_NAMES) return FIXED_NAME;
  names.add(toolName);
  return `${FIXED_NAME} ${toolName}`;
}

/** @internal For tests: forgets the admitted names. */
export function _resetToolSpanNames(): void {
  admitted().clear();
}
