import { context, propagation, SpanKind, trace, type Attributes } from '@opentelemetry/api';
import { isObjectLike, read, readString } from '../../../classify/safe';
import {
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ERROR_TYPE_VALUE_TOOL_ERROR,
  MCP_METHOD_NAME_VALUE_TOOLS_CALL,
} from '../../../semconv';
import type { ToolCallOptions } from '../../tool-call/options';
import type { AdapterContext, AnyFunction } from '../adapter';
import { addClientSessionId, protocolAttributes, writeJsonRpcCode } from './attributes';

/** The MCP client side: a CLIENT `tools/call {tool}` span per call, trace context sent in `_meta`. */

/** `callTool(params{name, arguments}, ...)`: 1.x `(params, resultSchema?, options?)`, 2.x `(params, options?)`. */
export function wrapCallTool(ctx: AdapterContext, original: AnyFunction): AnyFunction {
  return function callTool(this: unknown, ...args: unknown[]) {
    const name = readString(args[0], 'name');
    if (name === undefined) return original.apply(this, args);
    return traceClientToolCall(ctx, this, name, read(args[0], 'arguments'), () => original.apply(this, args));
  };
}

const CLIENT_CALL: ToolCallOptions = {
  protocol: {
    operation: MCP_METHOD_NAME_VALUE_TOOLS_CALL,
    kind: SpanKind.CLIENT,
    errorResultType: ERROR_TYPE_VALUE_TOOL_ERROR,
    onError: (span, err) => writeJsonRpcCode(span, err, true),
  },
};

/**
 * One `tools/call` from an MCP client (the MCP SDK's, or `@ai-sdk/mcp`'s): a CLIENT span with the
 * MCP conventions' attributes read from `client`, plus `extra`.
 */
export function traceClientToolCall(
  ctx: AdapterContext,
  client: unknown,
  name: string,
  input: unknown,
  run: () => unknown,
  extra?: Attributes,
): unknown {
  const attributes = protocolAttributes(client);
  addClientSessionId(attributes, client);
  if (extra !== undefined) Object.assign(attributes, extra);
  return ctx.traceToolCall({ name, type: 'extension', args: input, attributes }, run, CLIENT_CALL);
}

/**
 * `request({method, params}, ...)` for `tools/call`: sends a copy of the request whose
 * `params._meta` carries the active trace context (the caller's object is never changed), and
 * notes the JSON-RPC id on the call's span. The id is the protocol's next message id, which
 * `request` takes synchronously.
 */
export function wrapRequest(original: AnyFunction): AnyFunction {
  return function request(this: unknown, ...args: unknown[]) {
    const [message] = args;
    if (read(message, 'method') !== MCP_METHOD_NAME_VALUE_TOOLS_CALL) return original.apply(this, args);
    try {
      noteRequestId(this);
      const withContext = injectTraceContext(message as Record<string, unknown>);
      if (withContext !== undefined) args = [withContext, ...args.slice(1)];
    } catch {
      // The request goes out as it came.
    }
    return original.apply(this, args);
  };
}

function noteRequestId(protocol: unknown): void {
  const id = read(protocol, '_requestMessageId');
  const span = trace.getSpan(context.active());
  if (typeof id !== 'number' || !span?.isRecording()) return;
  const attributes = read(span, 'attributes');
  if (read(attributes, ATTR_MCP_METHOD_NAME) === MCP_METHOD_NAME_VALUE_TOOLS_CALL)
    span.setAttribute(ATTR_JSONRPC_REQUEST_ID, String(id));
}

/** The request with `traceparent`, `tracestate` and `baggage` in a new `params._meta`, or `undefined`. */
export function injectTraceContext(message: Record<string, unknown>): Record<string, unknown> | undefined {
  const params = read(message, 'params');
  const meta = read(params, '_meta');
  const carrier: Record<string, unknown> = isObjectLike(meta) ? { ...meta } : {};
  const before = Object.keys(carrier).length;
  propagation.inject(context.active(), carrier);
  if (Object.keys(carrier).length === before) return undefined;
  return { ...message, params: { ...(isObjectLike(params) ? params : {}), _meta: carrier } };
}
