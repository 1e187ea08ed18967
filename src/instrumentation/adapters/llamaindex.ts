import type { AdapterContext, AnyFunction, FrameworkAdapter } from './adapter';
import { noteOwnMethodFailures } from './shared/note-failures';

/**
 * `@llamaindex/workflow` agents (`agent()`, `multiAgent()`, `AgentWorkflow`).
 * `AgentWorkflow.prototype.callTool` runs one tool call. The core `callTool` it delegates to catches
 * what the tool throws and returns `{ output: prettifyError(e), isError: true }`, which `callTool`
 * re-throws as `new Error(String(output))`: only the text survives. So the tool's own `call` (a
 * per-object arrow function on `FunctionTool`) is wrapped once per tool, on its first call, to
 * note the real error first.
 * `FunctionAgent` rejects a call of an unknown tool before any tool runs ("Tools not found").
 */
interface AgentToolCall {
  agentName?: unknown;
  toolName?: unknown;
  toolKwargs?: unknown;
  toolId?: unknown;
}

interface LlamaTool {
  metadata?: { name?: unknown; description?: unknown };
  call?: unknown;
}

interface AgentWorkflowLike {
  agents?: Map<unknown, { tools?: LlamaTool[] }>;
}

/**
 * Tools whose `call` already notes its failures. One set per module: the noting `call` notes on
 * whichever instance's call is active, so whichever instance made it noting serves all.
 */
const notingTools = new WeakSet<object>();

export const llamaindexAdapter: FrameworkAdapter = {
  name: 'llamaindex',
  packages: [{ name: '@llamaindex/workflow', tested: ['>=1.1.22 <2'] }],
  setup(ctx) {
    // The CJS and ESM builds are separate classes; the package root exports each.
    const patch = ctx.wrapExports({
      prototypes: { AgentWorkflow: { callTool: (original) => wrapCallTool(ctx, original) } },
    });
    return { modules: [ctx.patchPackage('@llamaindex/workflow', patch)] };
  },
};

/** `callTool({ agentName, toolName, toolKwargs, toolId })`: resolves to the tool's output or throws. */
function wrapCallTool(ctx: AdapterContext, original: AnyFunction): AnyFunction {
  return function callTool(this: unknown, ...args: unknown[]) {
    const toolCall = args[0] as AgentToolCall | undefined;
    if (typeof toolCall?.toolName !== 'string') return original.apply(this, args);
    const tool = findTool(this as AgentWorkflowLike, toolCall);
    if (tool) noteOwnMethodFailures(tool, 'call', notingTools);
    return ctx.traceToolCall(
      {
        name: toolCall.toolName,
        callId: toolCall.toolId,
        description: tool?.metadata?.description,
        type: 'function',
        args: toolCall.toolKwargs,
      },
      () => original.apply(this, args),
      // AgentWorkflow awaits every callTool it makes.
      { outcome: 'awaited' },
    );
  };
}

/** The same lookup `callTool` makes: the named agent's tool with that name. */
function findTool(workflow: AgentWorkflowLike, toolCall: AgentToolCall): LlamaTool | undefined {
  try {
    const tools = workflow.agents?.get(toolCall.agentName)?.tools;
    return Array.isArray(tools)
      ? tools.find((tool) => tool?.metadata?.name === toolCall.toolName)
      : undefined;
  } catch {
    return undefined;
  }
}
