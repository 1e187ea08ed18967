import { classifyToolError } from '../../classify/classify-error';
import { classifyToolResult } from '../../classify/result';
import { ToolExecutionError } from '../../errors';
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
 */
const SUPPORTED = ['>=2.0.0 <3'];

interface FunctionToolLike {
  name?: unknown;
  description?: unknown;
  execute?: unknown;
}

interface AdkToolContext {
  functionCallId?: unknown;
  toolConfirmation?: { confirmed?: unknown };
  actions?: { requestedToolConfirmations?: Record<string, unknown> };
}

// A user declined the confirmation that the tool requires (`requireConfirmation`).
const DECLINED = classifyToolError(
  new ToolExecutionError('This tool call is rejected.', { kind: 'not_permitted' }),
);

/** Tools whose `execute` already notes its failures. */
const notingTools = new WeakSet<object>();

export const googleAdkAdapter: FrameworkAdapter = {
  name: 'google-adk',
  ownToolSpans: "ADK's own `execute_tool` spans",
  setup(ctx) {
    const functionTool = {
      runAsync: (original: AnyFunction) => wrapRunAsync(ctx, original),
      validateArgs: (original: AnyFunction) => noteFailures(original),
    };
    // The CJS and ESM builds are separate classes; the package root exports each.
    const patch = ctx.wrapExports({ prototypes: { FunctionTool: functionTool } });
    return { modules: [ctx.patchPackage('@google/adk', SUPPORTED, patch)] };
  },
};

/** `runAsync({ args, toolContext })`. */
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
      },
      () => original.apply(this, args),
      {
        classifyResult: (result) => classifyAdkResult(result, toolContext),
        // ADK records no exception on its span; the one recorded is the real error, noted first.
        recordExceptionOnFrameworkSpan: true,
        // ADK's function-call handling awaits every runAsync it starts.
        frameworkHandlesResult: true,
      },
    );
  };
}

/**
 * ADK's confirmation flow returns `{ error }` both while it waits for the user (not a failure) and
 * when the user declined (`not_permitted`); anything else is read like any tool result (the ADK
 * contract `{ status: 'error', error_message }` included).
 */
function classifyAdkResult(result: unknown, toolContext: AdkToolContext | undefined) {
  const confirmation = toolContext?.toolConfirmation;
  if (confirmation) {
    if (confirmation.confirmed === false) return DECLINED;
  } else {
    const callId = toolContext?.functionCallId;
    const requested = toolContext?.actions?.requestedToolConfirmations;
    if (typeof callId === 'string' && requested?.[callId] !== undefined) return undefined;
  }
  return classifyToolResult(result);
}
