import { createRequire } from 'node:module';
import { dirname, join, resolve as resolvePath } from 'node:path';
import type { AnyFunction, FrameworkAdapter, ModulePatch } from '../adapter';
import { wrapCallTool, wrapRequest } from './client';
import { wrapExecuteToolHandler, wrapSetRequestHandler } from './server';

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
const V2 = ['>=2.0.0 <3'];
/** 1.x's patched files, by their path in each build. */
const V1_FILES = ['client/index', 'server/index', 'server/mcp'] as const;
const v1Builds = (path: string) => [
  `@modelcontextprotocol/sdk/dist/esm/${path}.js`,
  `@modelcontextprotocol/sdk/dist/cjs/${path}.js`,
];

export const mcpAdapter: FrameworkAdapter = {
  name: 'mcp',
  packages: [
    { name: '@modelcontextprotocol/sdk', tested: ['>=1.2.0 <2'], files: V1_FILES.map(v1Builds) },
    { name: '@modelcontextprotocol/client', tested: V2 },
    { name: '@modelcontextprotocol/server', tested: V2 },
  ],
  setup(ctx) {
    const client = {
      Client: { callTool: (original: AnyFunction) => wrapCallTool(ctx, original), request: wrapRequest },
    };
    const server = {
      Server: { setRequestHandler: (original: AnyFunction) => wrapSetRequestHandler(ctx, original) },
    };
    const mcpServer = { McpServer: { executeToolHandler: wrapExecuteToolHandler } };
    const v1Files: Array<[(typeof V1_FILES)[number], ModulePatch]> = [
      ['client/index', ctx.wrapExports({ prototypes: client })],
      ['server/index', ctx.wrapExports({ prototypes: server })],
      ['server/mcp', ctx.wrapExports({ prototypes: mcpServer })],
    ];
    const cjsBuildWatches = v1Files.flatMap(([path, patch]) =>
      installedCjsBuild(`${path}.js`).map((filename) =>
        ctx.watchFile('@modelcontextprotocol/sdk', filename, patch),
      ),
    );
    return {
      enable: () => cjsBuildWatches.forEach((watch) => watch.start()),
      disable: () => cjsBuildWatches.forEach((watch) => watch.stop()),
      modules: [
        ctx.patchFiles(
          '@modelcontextprotocol/sdk',
          v1Files.map(([path, patch]) => ({ files: v1Builds(path), ...patch })),
        ),
        ctx.patchPackage('@modelcontextprotocol/client', ctx.wrapExports({ prototypes: client })),
        ctx.patchPackage(
          '@modelcontextprotocol/server',
          ctx.wrapExports({ prototypes: { ...server, ...mcpServer } }),
        ),
      ],
    };
  },
};

/**
 * require-in-the-middle cannot hook the 1.x CJS build by package name: it resolves the package's
 * main file to tell internal files apart, and 1.x's `"."` export names a `dist/cjs/index.js` that
 * does not exist. So the build's files are watched by absolute path, resolved the way the app will
 * resolve them: from the app's entry script (`process.argv[1]`, known before the app loads under
 * `--require`) and from the working directory.
 */
function installedCjsBuild(subpath: string): string[] {
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
  return [...filenames].filter((filename) => filename.endsWith('.js'));
}
