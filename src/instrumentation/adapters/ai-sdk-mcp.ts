import type { Attributes } from '@opentelemetry/api';
import { isObjectLike, read, readString } from '../../classify/safe';
import { ATTR_MCP_PROTOCOL_VERSION, MCP_METHOD_NAME_VALUE_TOOLS_CALL } from '../../semconv';
import { observeWhenCallerDoes } from '../tool-call/promise-watch';
import type { AdapterContext, AnyFunction, FrameworkAdapter } from './adapter';
import { injectTraceContext, traceClientToolCall } from './mcp/client';
import { ConfigurableExports } from './shared/configurable-exports';

/**
 * The AI SDK's own MCP client, `@ai-sdk/mcp` (1.x with `ai` 6, 2.x with `ai` 7). Its tools, from
 * `client.tools()`, call `client.callTool()`, which returns `isError` results to the model rather
 * than throwing. The client class is not exported, so `createMCPClient` is wrapped and the class of
 * the first client it creates gets a traced `callTool`:
 * - a CLIENT `tools/call {tool}` span per call, following the MCP conventions like the MCP SDK
 *   adapter (`error.type=tool_error` for an `isError` result, the finer type in
 *   `tool.error_detail_type`; a transport failure or JSON-RPC error is thrown and classified);
 * - when the AI SDK's own tool span for that tool is active (`ai.toolCall` in v6 with telemetry,
 *   `@ai-sdk/otel`'s `execute_tool` in v7, or ours), that span gets the MCP attributes instead;
 * - `request` writes the trace context into a copy of a `tools/call` request's `params._meta`, so
 *   an instrumented MCP server continues the trace.
 * The class stays patched after `disable()`; its wrappers then call straight through.
 */
const FACTORIES = ['createMCPClient', 'experimental_createMCPClient'] as const;

type McpModule = Record<string, unknown>;

export const aiSdkMcpAdapter: FrameworkAdapter = {
  name: 'ai-sdk-mcp',
  packages: [{ name: '@ai-sdk/mcp', tested: ['>=1.0.0 <2', '>=2.0.0 <3'] }],
  setup(ctx) {
    const exportsCopies = new ConfigurableExports<McpModule>();
    const patchedClasses = new WeakSet<object>();
    const patchClientClass = (client: unknown) => {
      const proto: unknown = isObjectLike(client) ? Object.getPrototypeOf(client) : undefined;
      if (!isObjectLike(proto) || patchedClasses.has(proto)) return;
      patchedClasses.add(proto);
      const methods = proto as Record<string, AnyFunction>;
      if (typeof methods.callTool === 'function') ctx.wrap(methods, 'callTool', (o) => wrapCallTool(ctx, o));
      if (typeof methods.request === 'function') ctx.wrap(methods, 'request', wrapRequest);
    };
    const patch = (exports: McpModule) => {
      if (!exports) return exports;
      const target = exportsCopies.writable(exports);
      for (const name of FACTORIES) {
        if (typeof target[name] === 'function') {
          ctx.wrap(target, name, (original) => wrapCreate(original as AnyFunction, patchClientClass));
        }
      }
      return target;
    };
    const unpatch = (exports: McpModule) => {
      const target = exports && exportsCopies.patched(exports);
      if (target) for (const name of FACTORIES) ctx.unwrap(target, name);
    };
    const expects = { functions: ['createMCPClient'] };
    return { modules: [ctx.patchPackage('@ai-sdk/mcp', { patch, unpatch, expects })] };
  },
};

/** `createMCPClient(config)` resolves to the client; its class is patched once the app reads it. */
function wrapCreate(original: AnyFunction, patchClientClass: (client: unknown) => void): AnyFunction {
  return function createMCPClient(this: unknown, ...args: unknown[]) {
    const created = original.apply(this, args);
    if (created instanceof Promise) {
      // Watched only once the app awaits it: a rejection nobody handles stays the app's.
      observeWhenCallerDoes(created, {
        resolved: patchClientClass,
        failed: () => undefined,
        failedUnobserved: () => undefined,
        streamEnded: () => undefined,
        runStep: (step) => step(),
      });
    }
    return created;
  };
}

/** `callTool({ name, arguments | args, options })`: 2.x names the input `arguments`, 1.x `args`. */
function wrapCallTool(ctx: AdapterContext, original: AnyFunction): AnyFunction {
  return function callTool(this: unknown, ...args: unknown[]) {
    const name = readString(args[0], 'name');
    if (name === undefined) return original.apply(this, args);
    const input = read(args[0], 'arguments') ?? read(args[0], 'args');
    return traceClientToolCall(ctx, this, name, input, () => original.apply(this, args), versionOf(this));
  };
}

/** 2.x keeps the negotiated version on the client, 1.x on its HTTP transport (`protocolAttributes`). */
function versionOf(client: unknown): Attributes | undefined {
  const version = readString(client, 'protocolVersion');
  return version === undefined ? undefined : { [ATTR_MCP_PROTOCOL_VERSION]: version };
}

/** `request({ request: { method, params }, resultSchema, options })`: trace context for `tools/call`. */
function wrapRequest(original: AnyFunction): AnyFunction {
  return function request(this: unknown, ...args: unknown[]) {
    const [call] = args;
    const message = read(call, 'request');
    if (read(message, 'method') !== MCP_METHOD_NAME_VALUE_TOOLS_CALL) return original.apply(this, args);
    try {
      const withContext = injectTraceContext(message as Record<string, unknown>);
      if (withContext !== undefined) args = [{ ...(call as object), request: withContext }, ...args.slice(1)];
    } catch {
      // The request goes out as it came.
    }
    return original.apply(this, args);
  };
}
