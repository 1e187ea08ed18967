import { builds, type AdapterContext, type AnyFunction, type FrameworkAdapter } from './adapter';
import { LANGGRAPH, LangGraphControlFlow } from './shared/langgraph-control-flow';

/**
 * `@langchain/core` tools: `StructuredTool.prototype.call`, which `invoke`, `tool()`,
 * `DynamicStructuredTool`, `DynamicTool` and subclasses all reach. It throws the tool's own error
 * (and `ToolInputParsingException` before the tool runs), so the span sees the original error even
 * when LangGraph's `ToolNode` later turns it into a `ToolMessage { status: 'error' }`. LangGraph's
 * interrupts and handoffs end the call `paused` or `handoff`, not failed (langgraph-control-flow.ts).
 */
const TOOLS = builds('@langchain/core/dist/tools/index', 'cjs', 'js');
const CALLBACK_MANAGER = builds('@langchain/core/dist/callbacks/manager', 'cjs', 'js');

/** `@langchain/core/callbacks/manager`; OpenInference flags it when it adds its tracer. */
type CallbackManagerModule = { openInferencePatched?: unknown };

interface ToolCallArg {
  type?: unknown;
  id?: unknown;
  args?: unknown;
}

export const langchainAdapter: FrameworkAdapter = {
  name: 'langchain',
  packages: [
    { name: '@langchain/core', tested: ['>=1.0.0 <2'], files: [TOOLS, CALLBACK_MANAGER] },
    LANGGRAPH,
  ],
  setup(ctx) {
    // This instance's state: another instance's `disable()` must not change what this one sees.
    // Held to ask whether OpenInference traces tools too (see isOpenInferenceTracing).
    const callbackManagers = new Set<CallbackManagerModule>();
    const langGraph = new LangGraphControlFlow();
    const call = (original: AnyFunction) => wrapCall(ctx, original, callbackManagers, langGraph);
    const tools = {
      files: TOOLS,
      ...ctx.wrapExports({ prototypes: { StructuredTool: { call } } }),
    };
    const callbackManager = {
      files: CALLBACK_MANAGER,
      patch(exports: CallbackManagerModule) {
        if (exports) callbackManagers.add(exports);
      },
      unpatch(exports: CallbackManagerModule) {
        callbackManagers.delete(exports);
      },
    };
    return {
      modules: [ctx.patchFiles('@langchain/core', [tools, callbackManager]), langGraph.files(ctx)],
    };
  },
};

/**
 * OpenInference's LangChain instrumentation makes its own TOOL span for every tool run (from
 * LangChain's callbacks, inside `call`). The GenAI conventions want one span per call, so this
 * adapter then starts none, and the processor enriches OpenInference's span when it ends (from its
 * status and exception text, and the failed HTTP calls under it).
 */
function isOpenInferenceTracing(callbackManagers: Set<CallbackManagerModule>): boolean {
  for (const manager of callbackManagers) if (manager.openInferencePatched === true) return true;
  return false;
}

/**
 * `call(arg, configArg, tags)`: `arg` is the input or a `tool_call`; the id may be on
 * `configArg.toolCall`. The RunnableConfig's `signal` (the caller's, combined with its `timeout` by
 * `invoke`) is the one the tool gets in its config: a thrown abort is read against it (caller-signal.ts).
 */
function wrapCall(
  ctx: AdapterContext,
  original: AnyFunction,
  callbackManagers: Set<CallbackManagerModule>,
  langGraph: LangGraphControlFlow,
): AnyFunction {
  return function call(this: unknown, ...args: unknown[]) {
    const tool = this as { name?: unknown; description?: unknown } | undefined;
    if (typeof tool?.name !== 'string' || isOpenInferenceTracing(callbackManagers))
      return original.apply(this, args);
    const [arg, configArg] = args as [
      ToolCallArg | undefined,
      { toolCall?: ToolCallArg; signal?: unknown; executionInfo?: { nodeAttempt?: unknown } } | undefined,
    ];
    const isToolCall = typeof arg === 'object' && arg !== null && arg.type === 'tool_call';
    return ctx.traceToolCall(
      {
        name: tool.name,
        callId: (isToolCall ? arg.id : undefined) ?? configArg?.toolCall?.id,
        description: tool.description,
        type: 'function',
        args: isToolCall ? arg.args : arg,
        callerSignal: configArg?.signal,
        // LangGraph numbers the reruns of a node its RetryPolicy makes.
        frameworkAttempt: configArg?.executionInfo?.nodeAttempt,
      },
      () => original.apply(this, args),
      // LangGraph's interrupts and handoffs (see langgraph-control-flow.ts).
      { halts: langGraph.halts },
    );
  };
}
