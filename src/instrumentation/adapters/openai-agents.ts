import { context, createContextKey } from '@opentelemetry/api';
import { classifyToolError } from '../../classify/classify-error';
import { classifyToolResult } from '../../classify/result';
import { builds, type AdapterContext, type AnyFunction, type FrameworkAdapter } from './adapter';
import { noteFailures } from './shared/note-failures';
import { onFirstUse } from './shared/on-first-use';
import { outermost } from '../two-instances';

/**
 * `@openai/agents-core` (and `@openai/agents`, which re-exports it). `tool()` returns a plain object
 * whose `invoke` is a closure, and by default hands the model a fixed string instead of the error
 * ("An error occurred while running the tool. Please try again.", "Tool 'x' timed out after Nms.").
 * - `invokeFunctionTool`, which the runner calls for every function tool, gets the span;
 * - `tool()` gets an `execute` that notes the real error, or the reason its abort signal fired
 *   (a `ToolTimeoutError` on timeout), before the SDK swallows it;
 * - a `tool()` tool that returns without running `execute` failed to parse its input;
 * - tools made before the instrumentation started are judged by the SDK's fixed texts.
 * Both functions live in `dist/tool.{js,mjs}`: the package root only re-exports them (as CJS
 * getters) and the runner calls them through that file's exports, so the file is patched.
 *
 * A tool with `needsApproval` never reaches `invokeFunctionTool` while its approval is pending or
 * once it was rejected: the runner's `executeFunctionToolCalls` (`dist/runner/toolExecution`)
 * decides first, returning a `function_approval` result (the run is interrupted for approval:
 * `paused`) or, for a call the run context records as rejected (`isToolApproved` is `false`), the
 * rejection text as its output (`denied`). Each such call gets a span of its own, from there.
 */
const TOOL = builds('@openai/agents-core/dist/tool', 'js', 'mjs');
const TOOL_EXECUTION = builds('@openai/agents-core/dist/runner/toolExecution', 'js', 'mjs');

interface FunctionToolLike {
  name?: unknown;
  description?: unknown;
  timeoutMs?: unknown;
}

interface InvokeArgs {
  tool?: FunctionToolLike;
  input?: unknown;
  details?: { toolCall?: { callId?: unknown }; signal?: unknown };
}

/** Per call: whether the tool's `execute` started. */
interface Attempt {
  executed: boolean;
}

const ATTEMPT_KEY = createContextKey('otel-tool-errors.openai-agents.attempt');

/** The call ids one `executeFunctionToolCalls` handed to `invokeFunctionTool`. */
const INVOKED_KEY = createContextKey('otel-tool-errors.openai-agents.invoked');

/**
 * Tools made by the patched `tool()`: their `execute` reports when it runs, to whichever
 * instance's `invokeFunctionTool` wrapper owns the call (through ATTEMPT_KEY), so this is a fact
 * about the tool, the same for every instance: one set per module.
 */
const toolsWithNotedExecute = new WeakSet<object>();

// What the SDK built and handed to `errorFunction` when the input did not parse; classified the
// same way as when `errorFunction: null` lets that `InvalidToolInputError` through.
const INVALID_INPUT = onFirstUse(() =>
  classifyToolError({ name: 'InvalidToolInputError', message: 'Invalid JSON input for tool' }),
);

// The SDK's default `errorFunction` and timeout texts (0.20 `dist/tool.js`): returned errors, for
// tools whose `execute` could not note the real error (made before the instrumentation started).
const DEFAULT_ERROR_TEXT = 'An error occurred while running the tool. Please try again.';
const RETURNED_ERROR = onFirstUse(() => classifyToolResult({ isError: true })!);
const TIMED_OUT = onFirstUse(() => classifyToolError({ name: 'ToolTimeoutError' }));

export const openaiAgentsAdapter: FrameworkAdapter = {
  name: 'openai-agents',
  packages: [{ name: '@openai/agents-core', tested: ['>=0.4.10 <0.21.0'], files: [TOOL, TOOL_EXECUTION] }],
  setup(ctx) {
    // With two instances enabled, the outer wrapper of each function owns the call and the inner
    // ones leave it: one noting `execute` per tool, one span per call.
    const toolFile = {
      files: TOOL,
      ...ctx.wrapExports({
        functions: {
          tool: outermost('openai-agents.tool', wrapTool),
          invokeFunctionTool: outermost('openai-agents.invokeFunctionTool', (original) =>
            wrapInvokeFunctionTool(ctx, original),
          ),
        },
      }),
    };
    const toolExecutionFile = {
      files: TOOL_EXECUTION,
      ...ctx.wrapExports({
        functions: {
          executeFunctionToolCalls: outermost('openai-agents.executeFunctionToolCalls', (original) =>
            wrapExecuteFunctionToolCalls(ctx, original),
          ),
        },
      }),
    };
    return { modules: [ctx.patchFiles('@openai/agents-core', [toolFile, toolExecutionFile])] };
  },
};

/** `tool(options)`: the same tool, built from options whose `execute` notes its failures. */
function wrapTool(original: AnyFunction): AnyFunction {
  return function tool(this: unknown, ...args: unknown[]) {
    const options = args[0] as { execute?: unknown } | undefined;
    if (typeof options?.execute !== 'function') return original.apply(this, args);
    const execute = noteExecuteFailures(options.execute as AnyFunction);
    const created = original.call(this, { ...options, execute }, ...args.slice(1));
    if (typeof created === 'object' && created !== null) toolsWithNotedExecute.add(created);
    return created;
  };
}

/**
 * `invokeFunctionTool({ tool, runContext, input, details })`: one span per function tool call.
 * `details.signal` is the run's (`run(agent, input, { signal })`, from 0.14.0), or one that also
 * cancels a call's siblings; a thrown abort is read against it (caller-signal.ts).
 */
function wrapInvokeFunctionTool(ctx: AdapterContext, original: AnyFunction): AnyFunction {
  return function invokeFunctionTool(this: unknown, ...args: unknown[]) {
    const { tool, input, details } = (args[0] ?? {}) as InvokeArgs;
    if (typeof tool?.name !== 'string') return original.apply(this, args);
    (context.active().getValue(INVOKED_KEY) as Set<unknown> | undefined)?.add(details?.toolCall?.callId);
    const attempt: Attempt = { executed: false };
    const reportsExecution = toolsWithNotedExecute.has(tool);
    return ctx.traceToolCall(
      {
        name: tool.name,
        callId: details?.toolCall?.callId,
        description: tool.description,
        type: 'function',
        args: input,
        callerSignal: details?.signal,
      },
      () => context.with(context.active().setValue(ATTEMPT_KEY, attempt), () => original.apply(this, args)),
      {
        classifyResult: (result) => classifyResult(result, tool, reportsExecution, attempt.executed),
        // The runner awaits every function tool it invokes.
        outcome: 'awaited',
      },
    );
  };
}

/**
 * What a call returned. A tool whose `execute` notes its failures and did not run it failed to
 * parse its input; any other tool only has the SDK's fixed texts to go by.
 */
function classifyResult(
  result: unknown,
  tool: FunctionToolLike,
  reportsExecution: boolean,
  executed: boolean,
) {
  if (reportsExecution) return executed ? classifyToolResult(result) : INVALID_INPUT();
  if (result === DEFAULT_ERROR_TEXT) return RETURNED_ERROR();
  if (result === `Tool '${String(tool.name)}' timed out after ${String(tool.timeoutMs)}ms.`)
    return TIMED_OUT();
  return classifyToolResult(result);
}

/**
 * `execute(input, runContext, details)` that marks the attempt as executed and notes what it throws.
 * Once `details.signal` has fired, its reason is what went wrong (a `ToolTimeoutError` on timeout,
 * which the SDK reports to the model while `execute` may still be running), not the abort error
 * `execute` then throws.
 */
function noteExecuteFailures(execute: AnyFunction): AnyFunction {
  return noteFailures(execute, (args, note) => {
    const attempt = context.active().getValue(ATTEMPT_KEY) as Attempt | undefined;
    if (!attempt) return null;
    attempt.executed = true;
    const given = (args[2] as { signal?: unknown } | undefined)?.signal;
    if (!(given instanceof AbortSignal)) return {};
    const onAbort = () => note(given.reason);
    given.addEventListener('abort', onAbort, { once: true });
    return {
      failure: (err) => (given.aborted ? given.reason : err),
      settled: () => given.removeEventListener('abort', onAbort),
    };
  });
}

interface ToolRunLike {
  tool?: FunctionToolLike;
  toolCall?: { callId?: unknown; arguments?: unknown };
}

interface RunStateLike {
  _context?: { isToolApproved?: (approval: { toolName: string; callId: string }) => unknown };
}

interface FunctionResultLike {
  type?: unknown;
  runItem?: { rawItem?: { callId?: unknown } };
}

/**
 * `executeFunctionToolCalls(agent, toolRuns, runner, state, ...)`: the calls it did not run, a span
 * each. The results say which wait for approval; of the others that never reached
 * `invokeFunctionTool`, the run context says which were rejected (the SDK keeps a rejection once
 * recorded). It is asked only for those: from 0.20 a question with a plain tool name costs the SDK a
 * thrown `SyntaxError` (about 9 µs a call when asked for every call).
 */
function wrapExecuteFunctionToolCalls(ctx: AdapterContext, original: AnyFunction): AnyFunction {
  return function executeFunctionToolCalls(this: unknown, ...args: unknown[]) {
    const toolRuns = Array.isArray(args[1]) ? (args[1] as ToolRunLike[]) : [];
    if (toolRuns.length === 0) return original.apply(this, args);
    const invoked = new Set<unknown>();
    const parent = context.active();
    const result = context.with(parent.setValue(INVOKED_KEY, invoked), () =>
      original.apply(this, args),
    ) as unknown;
    if (result instanceof Promise) {
      result.then(
        (results: unknown) => {
          try {
            context.with(parent, () =>
              traceUndecided(ctx, toolRuns, args[3] as RunStateLike, invoked, results),
            );
          } catch {
            // A runner or run context shape we do not know: its calls get only their own spans.
          }
        },
        () => undefined,
      );
    }
    return result;
  };
}

function isRejected(state: RunStateLike | undefined, run: ToolRunLike): boolean {
  const isToolApproved = state?._context?.isToolApproved;
  const toolName = run.tool?.name;
  const callId = run.toolCall?.callId;
  if (typeof isToolApproved !== 'function' || typeof toolName !== 'string' || typeof callId !== 'string')
    return false;
  return isToolApproved.call(state!._context, { toolName, callId }) === false;
}

function traceUndecided(
  ctx: AdapterContext,
  toolRuns: ToolRunLike[],
  state: RunStateLike | undefined,
  invoked: Set<unknown>,
  results: unknown,
): void {
  if (!Array.isArray(results)) return;
  const byCallId = new Map<unknown, FunctionResultLike>();
  for (const result of results as FunctionResultLike[])
    byCallId.set(result?.runItem?.rawItem?.callId, result);
  for (const run of toolRuns) {
    const result = byCallId.get(run.toolCall?.callId);
    if (typeof run.tool?.name !== 'string' || result === undefined) continue;
    const halt =
      result.type === 'function_approval'
        ? 'paused'
        : !invoked.has(run.toolCall?.callId) && isRejected(state, run)
          ? 'denied'
          : undefined;
    if (halt === undefined) continue;
    ctx.traceToolCall(
      {
        name: run.tool.name,
        callId: run.toolCall?.callId,
        description: run.tool.description,
        type: 'function',
        args: run.toolCall?.arguments,
      },
      () => undefined,
      { halts: { returned: () => halt } },
    );
  }
}
