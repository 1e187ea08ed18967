/**
 * The name of a span `ToolInstrumentation` starts: `{operation} {gen_ai.tool.name}`, as the GenAI
 * and MCP conventions name it (`execute_tool get_weather`, `tools/call get_weather`), for the first
 * 100 distinct tool names in the process, then `{operation}` alone. Tool names can be invented (a model calling a tool that does not exist, an MCP server
 * listing new ones), and every distinct span name is a new operation in trace backends and
 * spanmetrics. The name stays on the span as `gen_ai.tool.name` either way.
 */

export const MAX_TOOL_SPAN_NAMES = 100;

// Shared through a global symbol so two copies of the package (CJS and ESM) count against one cap.
const NAMES_KEY = Symbol.for('otel-tool-errors.tool-span-names');

function admitted(): Set<string> {
  const holder = globalThis as { [NAMES_KEY]?: Set<string> };
  return (holder[NAMES_KEY] ??= new Set());
}

export function toolSpanName(toolName: string, operation = 'execute_tool'): string {
  const names = admitted();
  if (names.has(toolName)) return `${operation} ${toolName}`;
  if (names.size >= MAX_TOOL_SPAN_NAMES) return operation;
  names.add(toolName);
  return `${operation} ${toolName}`;
}

/** @internal For tests: forgets the admitted names. */
export function _resetToolSpanNames(): void {
  admitted().clear();
}
