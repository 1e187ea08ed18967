import { builds, type AdapterContext, type AnyFunction, type FrameworkAdapter } from './adapter';
import { ConfigurableExports } from './shared/configurable-exports';

/**
 * `@mastra/core` tools made with `createTool` (`@mastra/core/tools`). A `Tool`'s `execute` is an
 * own property set in its constructor, so each created tool gets a traced `execute`. That `execute`
 * validates the input and output, returns failures as `{ error: true, message, validationErrors }`
 * (`invalid_input`), and lets the tool's own error through unchanged: the span sees it before the
 * agent wraps it in `MastraError` `TOOL_EXECUTION_FAILED` and hands the model its message.
 *
 * A tool that suspends (`suspend()` from its context: as a workflow step or in an agent) ends
 * `paused`: the call that suspends only asks; the run resumed with `resumeData` calls the tool
 * again, a call of its own. Mastra knows a suspension the same way, by the `suspend` it hands
 * the tool having been called (see watchSuspend).
 *
 * Not reached: `new Tool()` called directly, plain AI SDK-style tool objects, and the agent's own
 * input validation, which runs in an unexported, hash-named chunk before `execute`.
 */
const TOOLS = builds('@mastra/core/dist/tools/index', 'cjs', 'js');

interface MastraTool {
  id?: unknown;
  description?: unknown;
  execute?: AnyFunction;
}

type Suspend = (...args: unknown[]) => unknown;

interface ExecutionContext {
  abortSignal?: unknown;
  suspend?: unknown;
  agent?: { toolCallId?: unknown; suspend?: unknown };
  workflow?: { suspend?: unknown };
}

export const mastraAdapter: FrameworkAdapter = {
  name: 'mastra',
  packages: [{ name: '@mastra/core', tested: ['>=1.0.0 <2'], files: [TOOLS] }],
  ownToolSpans: "Mastra's own tool spans (through `@mastra/otel-bridge`)",
  setup(ctx) {
    // Releases before 1.54 (esbuild CommonJS builds) export `createTool` as a non-configurable
    // getter: the patch wraps it on a configurable copy of the exports, which the app then gets.
    const copies = new ConfigurableExports<object>();
    const inPlace = ctx.wrapExports({
      functions: { createTool: (original) => wrapCreateTool(ctx, original) },
    });
    const tools = {
      files: TOOLS,
      patch(exports: object) {
        if (!exports) return exports;
        const target = copies.writable(exports);
        inPlace.patch(target);
        return target;
      },
      unpatch(exports: object) {
        const target = exports && copies.patched(exports);
        if (target) inPlace.unpatch(target);
      },
    };
    return { modules: [ctx.patchFiles('@mastra/core', [tools])] };
  },
};

/** `createTool(opts)`: the same `Tool`, with a traced `execute`. */
function wrapCreateTool(ctx: AdapterContext, original: AnyFunction): AnyFunction {
  return function createTool(this: unknown, ...args: unknown[]) {
    const tool = original.apply(this, args) as MastraTool | undefined;
    try {
      if (typeof tool?.execute === 'function' && typeof tool.id === 'string') traceExecute(ctx, tool);
    } catch {
      // A tool shape we do not know: leave it untraced.
    }
    return tool;
  };
}

/**
 * `execute(inputData, context)`: the call id is `context.agent.toolCallId` when an agent calls;
 * `context.abortSignal` is the caller's (`agent.generate`/`stream`'s `abortSignal`), which a thrown
 * abort is read against (caller-signal.ts).
 */
function traceExecute(ctx: AdapterContext, tool: MastraTool): void {
  ctx.wrap(tool, 'execute', (execute) => {
    // `ctx.wrap` gives the method it installs the name and length of `execute`.
    return function (this: unknown, ...args: unknown[]) {
      const [input, executionContext] = args as [unknown, ExecutionContext | undefined];
      const suspension = { called: false };
      const suspended = () => (suspension.called ? ('paused' as const) : undefined);
      const watched = watchSuspend(executionContext, suspension);
      const callArgs = watched === executionContext ? args : [input, watched, ...args.slice(2)];
      return ctx.traceToolCall(
        {
          name: tool.id as string,
          callId: executionContext?.agent?.toolCallId,
          description: tool.description,
          type: 'function',
          args: input,
          callerSignal: executionContext?.abortSignal,
        },
        () => execute!.apply(this, callArgs),
        // Mastra's eager tool execution throws once `suspend` is called (EagerToolExecutionNotRun).
        { halts: { returned: suspended, thrown: suspended } },
      );
    };
  });
}

/**
 * The context with each `suspend` Mastra handed the tool (its own, its agent's, its workflow's)
 * noting that it was called, as Mastra's own `Tool.execute` wraps them; copies of the objects that
 * hold one, the same otherwise. A context without `suspend` is passed as it is.
 */
function watchSuspend(
  executionContext: ExecutionContext | undefined,
  suspension: { called: boolean },
): ExecutionContext | undefined {
  if (typeof executionContext !== 'object' || executionContext === null) return executionContext;
  const noting = (suspend: Suspend): Suspend =>
    function (this: unknown, ...args: unknown[]) {
      suspension.called = true;
      return Reflect.apply(suspend, this, args);
    };
  const withNoting = <T extends { suspend?: unknown }>(holder: T | undefined): T | undefined =>
    typeof holder?.suspend === 'function'
      ? { ...holder, suspend: noting(holder.suspend as Suspend) }
      : holder;
  const { agent, workflow } = executionContext;
  if (
    typeof executionContext.suspend !== 'function' &&
    typeof agent?.suspend !== 'function' &&
    typeof workflow?.suspend !== 'function'
  )
    return executionContext;
  // A copy always: the app's context object is never written to.
  const watched = { ...executionContext };
  if (typeof watched.suspend === 'function') watched.suspend = noting(watched.suspend as Suspend);
  if (agent !== undefined) watched.agent = withNoting(agent);
  if (workflow !== undefined) watched.workflow = withNoting(workflow);
  return watched;
}
