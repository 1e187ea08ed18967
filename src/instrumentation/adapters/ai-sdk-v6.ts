import type { AdapterContext, AnyFunction, FrameworkAdapter } from './adapter';
import { traceApprovalRequests, traceDeniedApprovals } from './shared/ai-sdk-approvals';
import { traceRejectedCalls } from './shared/ai-sdk-rejected-calls';
import { ConfigurableExports } from './shared/configurable-exports';

/**
 * Vercel AI SDK v6 (`ai` 5.x and 6.x). A tool does not know its name (it is the key in `tools`), so
 * the adapter wraps `tools[name].execute` in the arguments of `generateText`/`streamText` and in
 * what `ToolLoopAgent.prototype.prepareCall` returns. The SDK returns tool errors as `tool-error`
 * parts; the wrapper sees the thrown error first, with the `abortSignal` the SDK hands `execute`,
 * which tells a caller's cancel from the tool's own timeout (caller-signal.ts). With
 * `experimental_telemetry` on, the SDK's own `ai.toolCall` span is active around `execute` and is
 * enriched instead of duplicated.
 *
 * Calls the model makes to an unknown tool, or with input that fails the schema, never reach
 * `execute`; they get a span when their step finishes (`onStepFinish`), from the SDK's error.
 * So do calls waiting for approval (`needsApproval`: `paused`); a call whose approval the prompt
 * refuses gets a `denied` span when `generateText`/`streamText` is called (ai-sdk-approvals.ts).
 *
 * The CJS build exports non-configurable getters, so the patch returns a configurable copy of the
 * exports (see `ConfigurableExports`).
 */
const WRAPPED_FUNCTIONS = ['generateText', 'streamText'] as const;

type AiModule = Record<string, unknown> & { ToolLoopAgent?: { prototype: Record<string, AnyFunction> } };

interface AiTool {
  execute?: AnyFunction;
  description?: unknown;
}

export const aiSdkV6Adapter: FrameworkAdapter = {
  name: 'ai-sdk-v6',
  packages: [{ name: 'ai', tested: ['>=6.0.0 <7'] }],
  ownToolSpans: "the AI SDK's own `ai.toolCall` spans (with `experimental_telemetry` on)",
  setup(ctx) {
    const exportsCopies = new ConfigurableExports<AiModule>();
    const patch = (exports: AiModule) => {
      if (!exports) return exports;
      const target = exportsCopies.writable(exports);
      for (const name of WRAPPED_FUNCTIONS) {
        if (typeof target[name] === 'function') {
          ctx.wrap(target, name, (original) => wrapGenerate(ctx, original as AnyFunction));
        }
      }
      const agent = target.ToolLoopAgent?.prototype;
      if (typeof agent?.prepareCall === 'function') {
        ctx.wrap(agent, 'prepareCall', (original) => wrapPrepareCall(ctx, original));
      }
      return target;
    };
    const unpatch = (exports: AiModule) => {
      if (!exports) return;
      const target = exportsCopies.patched(exports);
      if (!target) return;
      for (const name of WRAPPED_FUNCTIONS) ctx.unwrap(target, name);
      if (target.ToolLoopAgent) ctx.unwrap(target.ToolLoopAgent.prototype, 'prepareCall');
    };
    const expects = { functions: WRAPPED_FUNCTIONS };
    return { modules: [ctx.patchPackage('ai', { patch, unpatch, expects })] };
  },
};

/** `generateText(options)` / `streamText(options)`: the same call with traced tools. */
function wrapGenerate(ctx: AdapterContext, original: AnyFunction): AnyFunction {
  return function (this: unknown, ...args: unknown[]) {
    const options = args[0] as Record<string, unknown> | undefined;
    if (typeof options !== 'object' || options === null) return original.apply(this, args);
    return original.call(this, withTracedTools(ctx, options), ...args.slice(1));
  };
}

/** `ToolLoopAgent.prepareCall` resolves to the `generateText` options, tools included. */
function wrapPrepareCall(ctx: AdapterContext, original: AnyFunction): AnyFunction {
  return function (this: unknown, ...args: unknown[]) {
    const prepared = original.apply(this, args) as Promise<Record<string, unknown>>;
    return prepared.then((options) =>
      typeof options === 'object' && options !== null ? withTracedTools(ctx, options) : options,
    );
  };
}

function withTracedTools(ctx: AdapterContext, options: Record<string, unknown>): Record<string, unknown> {
  const tools = options.tools as Record<string, AiTool> | undefined;
  if (typeof tools !== 'object' || tools === null) return options;
  const traced: Record<string, AiTool> = {};
  for (const [name, tool] of Object.entries(tools)) traced[name] = tracedTool(ctx, name, tool);
  const onStepFinish = options.onStepFinish as AnyFunction | undefined;
  traceDeniedApprovals(ctx, options.messages);
  return {
    ...options,
    tools: traced,
    onStepFinish(this: unknown, step: unknown) {
      traceRejectedCalls(ctx, step);
      traceApprovalRequests(ctx, step);
      return onStepFinish?.call(this, step);
    },
  };
}

function tracedTool(ctx: AdapterContext, name: string, tool: AiTool): AiTool {
  const execute = tool?.execute;
  if (typeof execute !== 'function') return tool;
  return {
    ...tool,
    execute(this: unknown, ...args: unknown[]) {
      if (!ctx.isEnabled()) return execute.apply(tool, args);
      const [input, options] = args as [unknown, { toolCallId?: unknown; abortSignal?: unknown } | undefined];
      return ctx.traceToolCall(
        {
          name,
          callId: options?.toolCallId,
          description: tool.description,
          type: 'function',
          args: input,
          callerSignal: options?.abortSignal,
        },
        () => execute.apply(tool, args),
        // Only the SDK sees these tools, and it awaits every execute it starts.
        { outcome: 'awaited' },
      );
    },
  };
}
