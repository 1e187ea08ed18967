import { context, propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { types } from 'node:util';
import { isObjectLike, read, readString } from '../../../classify/safe';
import {
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_MCP_SESSION_ID,
  ERROR_TYPE_VALUE_TOOL_ERROR,
  MCP_METHOD_NAME_VALUE_TOOLS_CALL,
} from '../../../semconv';
import { recordToolError } from '../../tool-call/trace-tool-call';
import type { AdapterContext, AnyFunction } from '../adapter';
import { outermost } from '../../two-instances';
import { addRequestId, protocolAttributes, writeJsonRpcCode } from './attributes';

/** The MCP server side: a SERVER `tools/call {tool}` span per call, under the client's trace context. */

interface RegisteredTool {
  handler?: unknown;
  description?: string;
}

/**
 * `setRequestHandler(schemaOrMethod, handler)` (2.x also `(method, schemas, handler)`): the
 * handler, when it serves `tools/call`, runs under a SERVER span. Other handlers run as they are.
 */
export function wrapSetRequestHandler(ctx: AdapterContext, original: AnyFunction): AnyFunction {
  return function setRequestHandler(this: unknown, ...args: unknown[]) {
    const last = args.length - 1;
    const handler = args[last];
    if (typeof handler === 'function') {
      args = [...args];
      args[last] = outermostServeToolsCall(ctx, this)(handler as AnyFunction);
    }
    return original.apply(this, args);
  };
}

/**
 * With two instances enabled, each wraps the handler as it is registered: the outer one serves the
 * call and the inner ones leave it, so that a call gets one SERVER span (a server span starts
 * under the request's context, never enriching another).
 */
function outermostServeToolsCall(ctx: AdapterContext, server: unknown) {
  return outermost('mcp.serveToolsCall', (handler) => serveToolsCall(ctx, server, handler), ctx.isEnabled);
}

function serveToolsCall(ctx: AdapterContext, server: unknown, handler: AnyFunction): AnyFunction {
  return function handleRequest(this: unknown, ...args: unknown[]) {
    const [request, extra] = args;
    const params = read(request, 'params');
    const name = readString(params, 'name');
    // Registered once, this handler outlives a disable(): it checks at each request.
    if (
      !ctx.isEnabled() ||
      read(request, 'method') !== MCP_METHOD_NAME_VALUE_TOOLS_CALL ||
      name === undefined
    )
      return handler.apply(this, args);
    const mcpRequest = read(extra, 'mcpReq');
    const meta = read(extra, '_meta') ?? read(mcpRequest, '_meta') ?? read(params, '_meta');
    const attributes = protocolAttributes(server);
    addRequestId(attributes, read(extra, 'requestId') ?? read(mcpRequest, 'id'));
    const sessionId = read(extra, 'sessionId');
    if (typeof sessionId === 'string') attributes[ATTR_MCP_SESSION_ID] = sessionId;
    return ctx.traceToolCall(
      {
        name,
        type: 'function',
        args: read(params, 'arguments'),
        attributes,
        // Aborted when the client cancels the request (`notifications/cancelled`): 1.x `extra.signal`,
        // 2.x `ctx.mcpReq.signal`. A bare abort thrown while it is not is the tool's own timeout.
        callerSignal: read(extra, 'signal') ?? read(mcpRequest, 'signal'),
      },
      () => handler.apply(this, args),
      {
        protocol: {
          operation: MCP_METHOD_NAME_VALUE_TOOLS_CALL,
          kind: SpanKind.SERVER,
          parent: isObjectLike(meta) ? propagation.extract(ROOT_CONTEXT, meta) : ROOT_CONTEXT,
          errorResultType: ERROR_TYPE_VALUE_TOOL_ERROR,
          onError: (span, err) => writeJsonRpcCode(span, err, false),
        },
        // The SDK calls the handler inside a `then` callback: the promise is always handled.
        outcome: 'awaited',
      },
    );
  };
}

/**
 * `executeToolHandler(tool, args, extra)` runs inside the server span: the handler's real error is
 * recorded there (an HTTP status, a Node code) before the SDK turns it into `isError` text.
 */
export function wrapExecuteToolHandler(original: AnyFunction): AnyFunction {
  return function executeToolHandler(this: unknown, ...args: unknown[]) {
    const tool = args[0] as RegisteredTool | undefined;
    // Task handlers only create a task here; its work runs later, outside this call.
    if (isTaskHandler(tool)) return original.apply(this, args);
    const span = trace.getSpan(context.active());
    if (span?.isRecording() && typeof tool?.description === 'string') {
      const attributes = read(span, 'attributes');
      if (read(attributes, ATTR_GEN_AI_TOOL_DESCRIPTION) === undefined)
        span.setAttribute(ATTR_GEN_AI_TOOL_DESCRIPTION, tool.description);
    }
    let result: unknown;
    try {
      result = original.apply(this, args);
    } catch (err) {
      recordToolError(err);
      throw err;
    }
    if (types.isPromise(result)) result.catch((err: unknown) => recordToolError(err));
    return result;
  };
}

function isTaskHandler(tool: RegisteredTool | undefined): boolean {
  const handler = tool?.handler;
  return (
    (typeof handler === 'object' || typeof handler === 'function') &&
    handler !== null &&
    'createTask' in handler
  );
}
