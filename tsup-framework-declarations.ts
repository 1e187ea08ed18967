import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { runInThisContext } from 'node:vm';
import { build, type Plugin } from 'esbuild';

const NAME = 'framework-declarations-as-data';

/**
 * The register's entry points read every adapter's declaration before the app's first need
 * (src/register/hooked-modules.ts), and must load no adapter until then: in their builds,
 * src/instrumentation/adapters/declarations.ts becomes its value, as data. That module is bundled
 * here with the build's own options and plugins (so that a build adding an adapter to the list, as
 * test/instrumentation/declared-adapter.test.ts does, declares it too) and run; its value must be
 * JSON, as declarations are.
 */
export const frameworkDeclarationsAsData: Plugin = {
  name: NAME,
  setup(pluginBuild) {
    pluginBuild.onLoad(
      { filter: /[\\/]src[\\/]instrumentation[\\/]adapters[\\/]declarations\.ts$/ },
      async (args) => {
        const { initialOptions } = pluginBuild;
        const { outputFiles } = await build({
          ...initialOptions,
          entryPoints: [args.path],
          format: 'cjs',
          write: false,
          sourcemap: false,
          metafile: false,
          plugins: (initialOptions.plugins ?? []).filter((plugin) => plugin.name !== NAME),
        });
        const code = outputFiles.find((file) => /\.c?js$/.test(file.path))!.text;
        const module = { exports: {} as { FRAMEWORK_DECLARATIONS?: unknown } };
        const run = runInThisContext(`(function (exports, require, module) {${code}\n})`, {
          filename: args.path,
        });
        (run as (...args: unknown[]) => void)(module.exports, createRequire(args.path), module);
        const declarations = JSON.stringify(module.exports.FRAMEWORK_DECLARATIONS);
        if (declarations === undefined) throw new Error(`${args.path} exports no FRAMEWORK_DECLARATIONS`);
        return {
          contents: `export const FRAMEWORK_DECLARATIONS = ${declarations};`,
          loader: 'js',
          resolveDir: dirname(args.path),
        };
      },
    );
  },
};
