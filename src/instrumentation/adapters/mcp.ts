import { createRequire } from 'node:module';
import { basename, dirname, join, resolve as resolvePath } from 'node:path';
import { types } from 'node:util';
import {
  context,
  propagation,
  ROOT_CONTEXT,
  SpanKind,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
} from '@opentelemetry/instrumentation';
import type { AdapterContext, FrameworkAdapter } from '../tool-instrumentation';
import { recordToolError, traceToolCall } from '../tool-call/trace-tool-call';
import { isObjectLike, read, readString } from '../../classify/safe';
import {
  ATTR_GEN_AI_TOOL_DESCRIPTION,
  ATTR_JSONRPC_REQUEST_ID,
  ATTR_MCP_METHOD_NAME,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP_SESSION_ID,
  ATTR_NETWORK_TRANSPORT,
  ATTR_RPC_RESPONSE_STATUS_CODE,
  ERROR_TYPE_VALUE_TOOL_ERROR,
  MCP_METHOD_NAME_VALUE_TOOLS_CALL,
} from '../../semconv';

/**
 * The MCP TypeScript SDK: 1.x (`@modelcontextprotocol/sdk`, separate CJS and ESM builds, both
 * patched) and 2.x (`@modelcontextprotocol/client` and `@modelcontextprotocol/server`). Spans
 * follow the MCP semantic conventions:
 * - Client: `tools/call {tool}`, kind CLIENT, around `Client.prototype.callTool`. `request` is
 *   patched too, for `tools/call` only: it writes the W3C trace context into a copy of
 *   `params._meta` and notes the JSON-RPC id. When an agent framework's own `execute_tool` span
 *   for the same tool is active, that span gets the MCP attributes instead of a second span.
 * - Server: `tools/call {tool}`, kind SERVER, around the `tools/call` request handler (any handler
 *   given to `setRequestHandler`), a child of the context in `params._meta`. `McpServer`'s
 *   `executeToolHandler` is patched as well: it sees the handler's real exception before the SDK
 *   turns it into an `isError` result.
 * An `isError` result gives `error.type=tool_error`, the finer type in `tool.error_detail_type`.
 */
const V1 = ['>=1.2.0 <2'];
const V2 = ['>=2.0.0 <3'];

type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;
type Prototype = Record<string, AnyFunction>;
type Exports = Record<string, { prototype: Prototype } | undefined>;

interface RegisteredTool {
  handler?: unknown;
  description?: string;
}

/** What a patch does to one exported class: which methods, wrapped how. */
interface ClassPatch {
  exportName: string;
  methods: Record<string, (ctx: AdapterContext, original: AnyFunction) => AnyFunction>;
}

const CLIENT: ClassPatch = {
  exportName: 'Client',
  methods: { callTool: wrapCallTool, request: wrapRequest },
};
const SERVER: ClassPatch = { exportName: 'Server', methods: { setRequestHandler: wrapSetRequestHandler } };
const MCP_SERVER: ClassPatch = {
  exportName: 'McpServer',
  methods: { executeToolHandler: wrapExecuteToolHandler },
};

export const mcpAdapter: FrameworkAdapter = {
  name: 'mcp',
  setup(ctx) {
    const hooks = (...patches: ClassPatch[]) => ({
      patch: (exports: Exports) => {
        for (const { exportName, methods } of patches) {
          const proto = exports?.[exportName]?.prototype;
          if (!proto) continue;
          for (const [method, wrap] of Object.entries(methods)) {
            if (typeof proto[method] === 'function')
              ctx.wrap(proto, method, (original) => wrap(ctx, original));
          }
        }
        return exports;
      },
      unpatch: (exports: Exports) => {
        for (const { exportName, methods } of patches) {
          const proto = exports?.[exportName]?.prototype;
          if (proto) for (const method of Object.keys(methods)) ctx.unwrap(proto, method);
        }
      },
    });
    type Hooks = ReturnType<typeof hooks>;
    const file = (path: string, { patch, unpatch }: Hooks, versions = V1) =>
      new InstrumentationNodeModuleFile(path, versions, patch as never, unpatch as never);
    const client = hooks(CLIENT);
    const server = hooks(SERVER);
    const mcpServer = hooks(MCP_SERVER);
    const v1Files: Array<[string, Hooks]> = [
      ['client/index.js', client],
      ['server/index.js', server],
      ['server/mcp.js', mcpServer],
    ];
    const v2 = (name: string, { patch, unpatch }: Hooks) =>
      new InstrumentationNodeModuleDefinition(name, V2, patch as never, unpatch as never);
    return {
      modules: [
        new InstrumentationNodeModuleDefinition(
          '@modelcontextprotocol/sdk',
          V1,
          undefined,
          undefined,
          v1Files.flatMap(([path, fileHooks]) => [
            file(`@modelcontextprotocol/sdk/dist/esm/${path}`, fileHooks),
            file(`@modelcontextprotocol/sdk/dist/cjs/${path}`, fileHooks),
          ]),
        ),
        ...v1Files.flatMap(([path, fileHooks]) =>
          absolutePathHooks(path, (name) => file(name, fileHooks, ['*'])),
        ),
        v2('@modelcontextprotocol/client', client),
        v2('@modelcontextprotocol/server', hooks(SERVER, MCP_SERVER)),
      ],
    };
  },
};

/**
 * require-in-the-middle cannot hook the 1.x CJS build by package name: it resolves the package's
 * main file to tell internal files apart, and 1.x's `"."` export names a `dist/cjs/index.js` that
 * does not exist. A hook on the file's absolute path works, so the file is resolved the way the
 * app will resolve it: from the app's entry script (`process.argv[1]`, known before the app loads
 * under `--require`) and from the working directory. require-in-the-middle then reports the file
 * by its base name, from a folder with no package version.
 */
function absolutePathHooks(
  subpath: string,
  file: (name: string) => InstrumentationNodeModuleFile,
): InstrumentationNodeModuleDefinition[] {
  const entry = process.argv[1];
  const origins = [entry ? dirname(resolvePath(entry)) : undefined, process.cwd()];
  const filenames = new Set<string>();
  for (const origin of origins) {
    if (origin === undefined) continue;
    try {
      filenames.add(createRequire(join(origin, 'index.js')).resolve(`@modelcontextprotocol/sdk/${subpath}`));
    } catch {
      // Not installed where this origin looks: the other origin may still find it.
    }
  }
  return [...filenames]
    .filter((filename) => filename.endsWith('.js'))
    .map(
      (filename) =>
        new InstrumentationNodeModuleDefinition(filename, ['*'], undefined, undefined, [
          file(basename(filename, '.js')),
        ]),
    );
}

/** `callTool(params{name, arguments}, ...)`: 1.x `(params, resultSchema?, options?)`, 2.x `(params, options?)`. */
function wrapCallTool(ctx: AdapterContext, original: AnyFunction): AnyFunction {
  return function callTool(this: unknown, ...args: unknown[]) {
    const name = readString(args[0], 'name');
    if (name === undefined) return original.apply(this, args);
    return traceToolCall(
      ctx.tracer,
      ctx.config,
      {
        name,
        type: 'extension',
        args: read(args[0], 'arguments'),
        attributes: { ...protocolAttributes(this), ...clientSessionAttributes(this) },
      },
      () => original.apply(this, args),
      {
        spanOperation: MCP_METHOD_NAME_VALUE_TOOLS_CALL,
        spanKind: SpanKind.CLIENT,
        errorResultType: ERROR_TYPE_VALUE_TOOL_ERROR,
        onError: (span, err) => writeJsonRpcCode(span, err, true),
      },
    );
  };
}

/**
 * `request({method, params}, ...)` for `tools/call`: sends a copy of the request whose
 * `params._meta` carries the active trace context (the caller's object is never changed), and
 * notes the JSON-RPC id on the call's span. The id is the protocol's next message id, which
 * `request` takes synchronously.
 */
function wrapRequest(_ctx: AdapterContext, original: AnyFunction): AnyFunction {
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
function injectTraceContext(message: Record<string, unknown>): Record<string, unknown> | undefined {
  const params = read(message, 'params');
  const meta = read(params, '_meta');
  const carrier: Record<string, unknown> = isObjectLike(meta) ? { ...meta } : {};
  const before = Object.keys(carrier).length;
  propagation.inject(context.active(), carrier);
  if (Object.keys(carrier).length === before) return undefined;
  return { ...message, params: { ...(isObjectLike(params) ? params : {}), _meta: carrier } };
}

/**
 * `setRequestHandler(schemaOrMethod, handler)` (2.x also `(method, schemas, handler)`): the
 * handler, when it serves `tools/call`, runs under a SERVER span. Other handlers run as they are.
 */
function wrapSetRequestHandler(ctx: AdapterContext, original: AnyFunction): AnyFunction {
  return function setRequestHandler(this: unknown, ...args: unknown[]) {
    const last = args.length - 1;
    const handler = args[last];
    if (typeof handler === 'function') {
      args = [...args];
      args[last] = serveToolsCall(ctx, this, handler as AnyFunction);
    }
    return original.apply(this, args);
  };
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
    const attributes: Attributes = {
      ...protocolAttributes(server),
      ...idAttribute(read(extra, 'requestId') ?? read(mcpRequest, 'id')),
    };
    const sessionId = read(extra, 'sessionId');
    if (typeof sessionId === 'string') attributes[ATTR_MCP_SESSION_ID] = sessionId;
    return traceToolCall(
      ctx.tracer,
      ctx.config,
      { name, type: 'function', args: read(params, 'arguments'), attributes },
      () => handler.apply(this, args),
      {
        spanOperation: MCP_METHOD_NAME_VALUE_TOOLS_CALL,
        spanKind: SpanKind.SERVER,
        parent: isObjectLike(meta) ? propagation.extract(ROOT_CONTEXT, meta) : ROOT_CONTEXT,
        errorResultType: ERROR_TYPE_VALUE_TOOL_ERROR,
        onError: (span, err) => writeJsonRpcCode(span, err, false),
      },
    );
  };
}

/**
 * `executeToolHandler(tool, args, extra)` runs inside the server span: the handler's real error is
 * recorded there (an HTTP status, a Node code) before the SDK turns it into `isError` text.
 */
function wrapExecuteToolHandler(_ctx: AdapterContext, original: AnyFunction): AnyFunction {
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

/** `mcp.method.name`, `network.transport` and `mcp.protocol.version` of a client or server. */
function protocolAttributes(endpoint: unknown): Attributes {
  const attributes: Attributes = { [ATTR_MCP_METHOD_NAME]: MCP_METHOD_NAME_VALUE_TOOLS_CALL };
  const transport = read(endpoint, '_transport') ?? read(endpoint, 'transport');
  const networkTransport = networkTransportOf(transport);
  if (networkTransport !== undefined) attributes[ATTR_NETWORK_TRANSPORT] = networkTransport;
  const version = negotiatedProtocolVersion(endpoint, transport);
  if (version !== undefined) attributes[ATTR_MCP_PROTOCOL_VERSION] = version;
  return attributes;
}

function clientSessionAttributes(client: unknown): Attributes {
  const sessionId = read(read(client, '_transport') ?? read(client, 'transport'), 'sessionId');
  return typeof sessionId === 'string' ? { [ATTR_MCP_SESSION_ID]: sessionId } : {};
}

/** `pipe` for stdio, `tcp` for Streamable HTTP and SSE; nothing for in-memory or unknown transports. */
function networkTransportOf(transport: unknown): string | undefined {
  const name = isObjectLike(transport)
    ? (transport.constructor as { name?: unknown } | undefined)?.name
    : undefined;
  if (typeof name !== 'string') return undefined;
  if (/stdio/i.test(name)) return 'pipe';
  if (/http|sse/i.test(name)) return 'tcp';
  return undefined;
}

/** 2.x: `getNegotiatedProtocolVersion()`; 1.x HTTP transports keep it as `protocolVersion`. */
function negotiatedProtocolVersion(endpoint: unknown, transport: unknown): string | undefined {
  const getter = read(endpoint, 'getNegotiatedProtocolVersion');
  if (typeof getter === 'function') {
    const version: unknown = Reflect.apply(getter, endpoint, []);
    if (typeof version === 'string') return version;
  }
  const version = read(transport, 'protocolVersion');
  return typeof version === 'string' ? version : undefined;
}

function idAttribute(id: unknown): Attributes {
  return typeof id === 'string' || typeof id === 'number' ? { [ATTR_JSONRPC_REQUEST_ID]: String(id) } : {};
}

/**
 * A JSON-RPC error response's code as `rpc.response.status_code`. On the client, 1.x raises the
 * SDK's own timeout (-32001) and closed connection (-32000) as `McpError` too: no response
 * carried them. On the server, a thrown error is answered with its own code or InternalError.
 */
function writeJsonRpcCode(span: Span, err: unknown, client: boolean): void {
  const code = read(err, 'code');
  const isCode = typeof code === 'number' && Number.isInteger(code);
  if (client && (!isCode || code === -32001 || code === -32000)) return;
  span.setAttribute(ATTR_RPC_RESPONSE_STATUS_CODE, String(isCode ? code : -32603));
}

function isTaskHandler(tool: RegisteredTool | undefined): boolean {
  const handler = tool?.handler;
  return (
    (typeof handler === 'object' || typeof handler === 'function') &&
    handler !== null &&
    'createTask' in handler
  );
}
