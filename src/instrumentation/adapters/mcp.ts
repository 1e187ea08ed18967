import { createRequire } from 'node:module';
import { basename, dirname, join, resolve as resolvePath } from 'node:path';
import {
  InstrumentationNodeModuleDefinition,
  InstrumentationNodeModuleFile,
} from '@opentelemetry/instrumentation';
import type { AdapterContext, FrameworkAdapter } from '../tool-instrumentation';
import { traceToolCall } from '../tool-call-wrapper';

/**
 * `@modelcontextprotocol/sdk` 1.x. The CJS and ESM builds are separate classes, so both files are
 * patched.
 * - Client: `Client.prototype.callTool`. Servers report most failures as `isError` results (their
 *   text carries `MCP error -326xx`); only timeouts and transport errors are thrown.
 * - Server: `McpServer.prototype.executeToolHandler`, which sees the real exception of a handler
 *   before the SDK turns it into an `isError` result.
 */
const SUPPORTED = ['>=1.0.0 <2'];

type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

type ClientModule = { Client?: { prototype: Record<string, AnyFunction> } };
type ServerModule = { McpServer?: { prototype: Record<string, AnyFunction> } };

interface RegisteredTool {
  handler?: unknown;
  description?: string;
}

export const mcpAdapter: FrameworkAdapter = {
  name: 'mcp',
  setup(ctx) {
    const clientPatch = {
      patch: (exports: ClientModule) => {
        const proto = exports?.Client?.prototype;
        if (typeof proto?.callTool === 'function')
          ctx.wrap(proto, 'callTool', (original) => wrapCallTool(ctx, original));
        return exports;
      },
      unpatch: (exports: ClientModule) => {
        if (exports?.Client) ctx.unwrap(exports.Client.prototype, 'callTool');
      },
    };
    const serverPatch = {
      patch: (exports: ServerModule) => {
        const proto = exports?.McpServer?.prototype;
        if (typeof proto?.executeToolHandler === 'function') {
          ctx.wrap(proto, 'executeToolHandler', (original) => wrapExecuteToolHandler(ctx, original));
        }
        return exports;
      },
      unpatch: (exports: ServerModule) => {
        if (exports?.McpServer) ctx.unwrap(exports.McpServer.prototype, 'executeToolHandler');
      },
    };
    const file = (path: string, hooks: typeof clientPatch | typeof serverPatch, versions = SUPPORTED) =>
      new InstrumentationNodeModuleFile(path, versions, hooks.patch as never, hooks.unpatch as never);
    return {
      modules: [
        new InstrumentationNodeModuleDefinition(
          '@modelcontextprotocol/sdk',
          SUPPORTED,
          undefined,
          undefined,
          [
            file('@modelcontextprotocol/sdk/dist/esm/client/index.js', clientPatch),
            file('@modelcontextprotocol/sdk/dist/esm/server/mcp.js', serverPatch),
            file('@modelcontextprotocol/sdk/dist/cjs/client/index.js', clientPatch),
            file('@modelcontextprotocol/sdk/dist/cjs/server/mcp.js', serverPatch),
          ],
        ),
        ...absolutePathHooks('client/index.js', (name) => file(name, clientPatch, ['*'])),
        ...absolutePathHooks('server/mcp.js', (name) => file(name, serverPatch, ['*'])),
      ],
    };
  },
};

/**
 * require-in-the-middle cannot hook the CJS build by package name: it resolves the package's main
 * file to tell internal files apart, and 1.x's `"."` export names a `dist/cjs/index.js` that does
 * not exist. A hook on the file's absolute path works, so the file is resolved the way the app
 * will resolve it: from the app's entry script (`process.argv[1]`, known before the app loads
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

/** `callTool(params{name, arguments}, resultSchema?, options?)`. */
function wrapCallTool(ctx: AdapterContext, original: AnyFunction): AnyFunction {
  return function callTool(this: unknown, ...args: unknown[]) {
    const params = args[0] as { name?: unknown; arguments?: unknown } | undefined;
    const name = params?.name;
    if (typeof name !== 'string') return original.apply(this, args);
    return traceToolCall(ctx.tracer, ctx.config, { name, type: 'extension', args: params?.arguments }, () =>
      original.apply(this, args),
    );
  };
}

/** `executeToolHandler(tool, args, extra)`; the tool's name is its key in `_registeredTools`. */
function wrapExecuteToolHandler(ctx: AdapterContext, original: AnyFunction): AnyFunction {
  return function executeToolHandler(this: unknown, ...args: unknown[]) {
    const [tool, toolArgs, extra] = args as [
      RegisteredTool | undefined,
      unknown,
      { requestId?: unknown } | undefined,
    ];
    const name = nameOf(this, tool);
    // Task handlers only create a task here; its work runs later, outside this call.
    if (name === undefined || isTaskHandler(tool)) return original.apply(this, args);
    const requestId = extra?.requestId;
    return traceToolCall(
      ctx.tracer,
      ctx.config,
      {
        name,
        callId:
          typeof requestId === 'string' || typeof requestId === 'number' ? String(requestId) : undefined,
        description: typeof tool?.description === 'string' ? tool.description : undefined,
        type: 'function',
        args: toolArgs,
      },
      () => original.apply(this, args),
    );
  };
}

function nameOf(server: unknown, tool: RegisteredTool | undefined): string | undefined {
  const registered = (server as { _registeredTools?: Record<string, unknown> } | undefined)?._registeredTools;
  if (!tool || typeof registered !== 'object' || registered === null) return undefined;
  for (const [name, candidate] of Object.entries(registered)) if (candidate === tool) return name;
  return undefined;
}

function isTaskHandler(tool: RegisteredTool | undefined): boolean {
  const handler = tool?.handler;
  return (
    (typeof handler === 'object' || typeof handler === 'function') &&
    handler !== null &&
    'createTask' in handler
  );
}
