import type { ToolCallHalt } from '../../semconv';
import type { AdapterContext, AnyFunction, FrameworkAdapter } from './adapter';
import { noteFailures, noteOwnMethodFailures } from './shared/note-failures';

/**
 * `@google/adk` `FunctionTool`. ADK runs `runAsync` inside its own active `execute_tool {name}` span
 * (tracer `gcp.vertex.agent`), sets that span's attributes only on success, and re-throws every
 * failure as a plain `Error("Error in tool '<name>': <message>")`. The patched `runAsync` enriches
 * ADK's span (the shared wrapper recognises it; without one it starts its own) and classifies the
 * real error, noted where it is thrown: in `validateArgs` (the Zod schema) and in the tool's own
 * `execute`, an own property that is wrapped once per tool, on its first call.
 * A call of an unknown tool ends ADK's step with an error event before any tool runs.
 * A tool that requires confirmation (`requireConfirmation`) returns `{ error }` instead of running,
 * both while ADK waits for the user and once the user declined: such calls end `paused` and
 * `denied` (see haltOfAdkResult), not failed.
 */
/**
 * The file that defines FunctionTool, in each build (separate classes), at the same path from 0.2
 * to 2.0. Not the package root: its `export *` chains would have import-in-the-middle read and
 * parse most of ADK to list its names (about 125 ms and 20 MiB of an ESM app's start).
 */
const FUNCTION_TOOL = [
  '@google/adk/dist/cjs/tools/function_tool.js',
  '@google/adk/dist/esm/tools/function_tool.js',
];

interface FunctionToolLike {
  name?: unknown;
  description?: unknown;
  execute?: unknown;
}

interface AdkToolContext {
  functionCallId?: unknown;
  abortSignal?: unknown;
  toolConfirmation?: { confirmed?: unknown };
  actions?: { requestedToolConfirmations?: Record<string, unknown> };
}

/**
 * Tools whose `execute` already notes its failures. One set per module: the noting `execute`
 * notes on whichever instance's call is active, so whichever instance made it noting serves all.
 */
const notingTools = new WeakSet<object>();

export const googleAdkAdapter: FrameworkAdapter = {
  name: 'google-adk',
  packages: [{ name: '@google/adk', tested: ['>=2.0.0 <3'], files: [FUNCTION_TOOL] }],
  ownToolSpans: "ADK's own `execute_tool` spans",
  setup(ctx) {
    const functionTool = {
      runAsync: (original: AnyFunction) => wrapRunAsync(ctx, original),
      validateArgs: (original: AnyFunction) => noteFailures(original),
    };
    const file = {
      files: FUNCTION_TOOL,
      ...ctx.wrapExports({ prototypes: { FunctionTool: functionTool } }),
    };
    return { modules: [ctx.patchFiles('@google/adk', [file])] };
  },
};

/**
 * `runAsync({ args, toolContext })`. `toolContext.abortSignal` is the run's (`runner.runAsync`'s
 * `abortSignal`); a thrown abort is read against it (caller-signal.ts).
 */
function wrapRunAsync(ctx: AdapterContext, original: AnyFunction): AnyFunction {
  return function runAsync(this: unknown, ...args: unknown[]) {
    const tool = this as FunctionToolLike | undefined;
    if (typeof tool?.name !== 'string') return original.apply(this, args);
    noteOwnMethodFailures(tool, 'execute', notingTools);
    const request = args[0] as { args?: unknown; toolContext?: AdkToolContext } | undefined;
    const toolContext = request?.toolContext;
    return ctx.traceToolCall(
      {
        name: tool.name,
        callId: toolContext?.functionCallId,
        description: tool.description,
        args: request?.args,
        callerSignal: toolContext?.abortSignal,
      },
      () => original.apply(this, args),
      {
        halts: { returned: () => haltOfAdkResult(toolContext) },
        // ADK records no exception on its span; the one recorded is the real error, noted first.
        frameworkRecordsNoException: true,
        // ADK's function-call handling awaits every runAsync it starts.
        outcome: 'awaited',
      },
    );
  };
}

/**
 * Read from the call's context as ADK's `checkConfirmation` reads it: a call answered with a
 * confirmation that is not `confirmed` was declined; one that asked for a confirmation
 * (`toolContext.requestConfirmation()`, by ADK or the tool itself) waits for the user. Any other
 * result is read like any tool result (the ADK contract `{ status: 'error', error_message }` too).
 */
function haltOfAdkResult(toolContext: AdkToolContext | undefined): ToolCallHalt | undefined {
  const confirmation = toolContext?.toolConfirmation;
  if (confirmation) return confirmation.confirmed ? undefined : 'denied';
  const callId = toolContext?.functionCallId;
  const requested = toolContext?.actions?.requestedToolConfirmations;
  return typeof callId === 'string' && requested?.[callId] !== undefined ? 'paused' : undefined;
}
