import { context } from '@opentelemetry/api';
import { types } from 'node:util';
import { isObjectLike, readOwnData } from '../../classify/safe';
import { withNameAndLength } from '../name-and-length';
import type { AdapterContext, AnyFunction, FrameworkAdapter } from './adapter';
import { ToolUseSpans } from './claude-agent-sdk-tool-uses';
import { outermost } from '../two-instances';

/**
 * `@anthropic-ai/claude-agent-sdk` (ESM only). `query()` starts the Claude Code CLI as a child
 * process, which runs every tool (built-in tools such as Bash and Read, MCP servers; in-process
 * tools through a call back into the SDK) and reports each call in the message stream: a
 * `tool_use` block, then a `tool_result` block with `is_error` when it failed. The patched
 * `query()` reads the messages as the app reads them (see watchQuery) and makes one
 * `execute_tool` span per call, under the span active around `query()` (see ToolUseSpans).
 * `createSdkMcpServer()` gets tool handlers that remember what they throw, by `tool_use_id`, so
 * the span of an in-process tool carries the real error rather than the text the SDK's bundled
 * MCP server turns it into.
 */
/** How the CLI passes the `tool_use_id` of a call to an in-process tool (`extra._meta`). */
const TOOL_USE_ID_META = 'claudecode/toolUseId';
/** In-process errors wait here until the app reads their result; at most this many. */
const MAX_REMEMBERED_ERRORS = 256;

interface ToolDefinitionLike {
  handler?: unknown;
}

export const claudeAgentSdkAdapter: FrameworkAdapter = {
  name: 'claude-agent-sdk',
  packages: [{ name: '@anthropic-ai/claude-agent-sdk', tested: ['>=0.3.302 <0.4.0'] }],
  setup(ctx) {
    // This instance's state: another instance's `disable()` or tracer provider must not change
    // what this one sees.
    const thrown = new ThrownErrors();
    /** The tool calls of each query this instance watches, by the query's message queue. */
    const queries = new WeakMap<object, ToolUseSpans>();
    const patch = ctx.wrapExports({
      functions: {
        // A call gets one span, as a LangChain tool's does: with two instances enabled, the outer
        // wrapper watches the query and the inner ones leave it (a `query()` an in-process tool
        // makes later is a query of its own).
        query: outermost('claude-agent-sdk.query', (original) => wrapQuery(ctx, original, queries, thrown)),
        createSdkMcpServer: (original) => wrapCreateSdkMcpServer(ctx, original, thrown),
      },
    });
    return { modules: [ctx.patchPackage('@anthropic-ai/claude-agent-sdk', patch)] };
  },
};

type Queries = WeakMap<object, ToolUseSpans>;

function wrapQuery(
  ctx: AdapterContext,
  original: AnyFunction,
  queries: Queries,
  thrown: ThrownErrors,
): AnyFunction {
  return function query(this: unknown, ...args: unknown[]) {
    const result = original.apply(this, args);
    try {
      watchQuery(ctx, result, queries, thrown);
    } catch {
      // A query shape we do not know: it runs untraced.
    }
    return result;
  };
}

/**
 * The query's messages come from its `inputStream`, a queue the SDK fills from the CLI and that
 * the generator the app iterates reads with `next`; reading there leaves everything the app holds
 * (query, iterator, messages) the SDK's own. Each instance puts its wrappers on the queue's class
 * on its first query (`ctx.wrap` keeps one per instance; the queue is read only once the app
 * iterates): `next` sees each message before the app does, and the end of the stream or its
 * error; `return` that the app stopped reading (`break`, `return()`). Each reads only the queues
 * of its own queries. Messages still queued when the CLI exits are read by the app, and their
 * results counted, first.
 */
function watchQuery(ctx: AdapterContext, query: unknown, queries: Queries, thrown: ThrownErrors): void {
  const queue = readOwnData(query, 'inputStream');
  if (!isObjectLike(queue)) return;
  const queueClass = Object.getPrototypeOf(queue) as { next?: unknown; return?: unknown } | null;
  if (typeof queueClass?.next !== 'function' || typeof queueClass.return !== 'function') return;
  ctx.wrap(queueClass as { next: AnyFunction }, 'next', (original) => watchNext(original, queries));
  ctx.wrap(queueClass as { return: AnyFunction }, 'return', (original) => watchReturn(original, queries));
  queries.set(queue, new ToolUseSpans(ctx, context.active(), (id) => thrown.take(id)));
}

/** The queue's `next`: each message is read before the SDK's generator yields it to the app. */
function watchNext(original: AnyFunction, queries: Queries): AnyFunction {
  return function next(this: unknown, ...args: unknown[]) {
    const result = original.apply(this, args);
    const calls = isObjectLike(this) ? queries.get(this) : undefined;
    if (calls === undefined || !isNativePromise(result)) return result;
    // Only the SDK's generator awaits this promise: the same step, or the same error.
    return result.then(
      (step: unknown) => {
        if (readOwnData(step, 'done') === true) calls.end();
        else calls.read(readOwnData(step, 'value'));
        return step;
      },
      (err: unknown) => {
        calls.end(err);
        throw err;
      },
    );
  };
}

/** The queue's `return`: the app stopped reading; calls still waiting for a result were cut short. */
function watchReturn(original: AnyFunction, queries: Queries): AnyFunction {
  return function (this: unknown, ...args: unknown[]) {
    if (isObjectLike(this)) queries.get(this)?.end();
    return original.apply(this, args);
  };
}

function isNativePromise(value: unknown): value is Promise<unknown> {
  return types.isPromise(value) && Object.getPrototypeOf(value) === Promise.prototype;
}

/** `createSdkMcpServer({ tools })`: the same server, made from copies of the tools whose handlers remember what they throw. */
function wrapCreateSdkMcpServer(
  ctx: AdapterContext,
  original: AnyFunction,
  thrown: ThrownErrors,
): AnyFunction {
  return function createSdkMcpServer(this: unknown, ...args: unknown[]) {
    const options = args[0] as { tools?: unknown } | undefined;
    if (!ctx.isEnabled() || !Array.isArray(options?.tools)) return original.apply(this, args);
    const tools = (options.tools as unknown[]).map((tool) => {
      const handler = (tool as ToolDefinitionLike | undefined)?.handler;
      if (typeof handler !== 'function') return tool;
      return { ...(tool as object), handler: rememberFailures(ctx, handler as AnyFunction, thrown) };
    });
    return original.call(this, { ...options, tools }, ...args.slice(1));
  };
}

/** `handler(args, extra)`, remembering what it throws or rejects with under the call's `tool_use_id`. */
function rememberFailures(ctx: AdapterContext, handler: AnyFunction, thrown: ThrownErrors): AnyFunction {
  const remembering = function (this: unknown, ...args: unknown[]) {
    const id = readOwnData(readOwnData(args[1], '_meta'), TOOL_USE_ID_META);
    // A server made while tracing was on outlives a `disable()`: its handlers then only call through.
    if (typeof id !== 'string' || !ctx.isEnabled()) return Reflect.apply(handler, this, args);
    try {
      const result = Reflect.apply(handler, this, args);
      // The SDK awaits the handler's promise: reacting to it too changes nothing.
      if (isNativePromise(result)) result.then(undefined, (err: unknown) => thrown.remember(id, err));
      return result;
    } catch (err) {
      thrown.remember(id, err);
      throw err;
    }
  };
  return withNameAndLength(remembering, handler);
}

/** Errors of in-process tools by `tool_use_id`, until the app reads the call's result. */
class ThrownErrors {
  private readonly errors = new Map<string, unknown>();

  remember(id: string, err: unknown): void {
    this.errors.set(id, err);
    // Results the app never reads leave their errors behind: the oldest go first.
    if (this.errors.size > MAX_REMEMBERED_ERRORS) this.errors.delete(this.errors.keys().next().value!);
  }

  take(id: string): unknown {
    const err = this.errors.get(id);
    this.errors.delete(id);
    return err;
  }
}
