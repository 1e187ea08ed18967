/**
 * Tool span families for the rules file, in the shape of the declarations the package's own
 * recognition is moving to (`SpanFamily`: `recognise`, `toolName`, `result`, `mcpToolCall`,
 * `ownErrorType`). Until src/tool-span declares its families as data, this list states what
 * src/tool-span/recognition.ts and src/processor/span-evidence.ts recognise and read today, plus
 * the Python instrumentations' tool spans; the conformance corpus checks both implementations
 * against it. Then the generator reads the package's list instead, and this file goes.
 */
export interface SpanMatch {
  readonly nameEquals?: string;
  readonly namePrefix?: string;
  readonly nameSuffix?: string;
  /** Attributes that must have exactly these values. */
  readonly attributes?: Readonly<Record<string, string>>;
  /** Attributes that must be present, whatever their value. */
  readonly present?: readonly string[];
}

export interface SpanFamilyRule {
  readonly framework: string;
  readonly recognise: readonly SpanMatch[];
  /** Attributes holding what the tool returned (JSON text), read after `gen_ai.tool.call.result`. */
  readonly result?: readonly string[];
  /** An MCP `tools/call` span: a returned `isError` result is `error.type=tool_error`. */
  readonly mcpToolCall?: { readonly flag?: string; readonly text?: string };
  /** The `error.type` this framework writes is its own error id, not the tool's. */
  readonly ownErrorType?: true;
}

const EXECUTE_TOOL = { 'gen_ai.operation.name': 'execute_tool' };

export const SPAN_FAMILIES: readonly SpanFamilyRule[] = [
  {
    // Google ADK (Python and JavaScript) writes `execute_tool {name}` and the returned value in
    // its own attribute; OpenLLMetry's LangChain instrumentation follows the same convention.
    framework: 'GenAI execute_tool (Google ADK, OpenLLMetry LangChain, Anthropic SDK, AI SDK v7)',
    recognise: [{ attributes: EXECUTE_TOOL }, { namePrefix: 'execute_tool ' }],
    result: ['gcp.vertex.agent.tool_response', 'traceloop.entity.output'],
  },
  {
    framework: 'Mastra',
    recognise: [{ namePrefix: "tool: '" }, { namePrefix: "mcp_tool: '" }],
    ownErrorType: true,
  },
  { framework: 'Vercel AI SDK', recognise: [{ nameEquals: 'ai.toolCall' }], result: ['ai.toolCall.result'] },
  { framework: 'VoltAgent', recognise: [{ namePrefix: 'tool.execution:' }], result: ['output'] },
  {
    framework: 'MCP tools/call (Sentry, OpenLLMetry MCP, dd-trace, MCP SDKs)',
    recognise: [
      { attributes: { 'mcp.method.name': 'tools/call' } },
      { attributes: { 'traceloop.span.kind': 'tool' }, nameSuffix: '.tool' },
      { nameEquals: 'modelcontextprotocol-sdk.callTool' },
      { nameEquals: 'mcp.request', present: ['mcp.tool.name'] },
    ],
    result: ['traceloop.entity.output'],
    mcpToolCall: { flag: 'mcp.tool.result.is_error', text: 'mcp.tool.result.content' },
  },
  {
    framework: 'OpenInference (LangChain, LlamaIndex, CrewAI, … in Python and JavaScript)',
    recognise: [{ attributes: { 'openinference.span.kind': 'TOOL' } }],
    result: ['output.value'],
  },
  {
    // OpenLLMetry Python's `@tool` decorator: `{name}.tool`, `traceloop.span.kind=tool`.
    framework: 'OpenLLMetry (traceloop.span.kind=tool)',
    recognise: [{ attributes: { 'traceloop.span.kind': 'tool' } }],
    result: ['traceloop.entity.output'],
  },
  {
    framework: 'Genkit',
    recognise: [{ attributes: { 'genkit:metadata:subtype': 'tool', 'genkit:type': 'action' } }],
    result: ['genkit:output'],
  },
];
