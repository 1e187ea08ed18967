import type { Plugin, PluginBuild } from 'esbuild';
import { EXPORTER_PACKAGES } from './src/register/exporter-packages';
import { SHARED_PACKAGES } from './src/register/shared-packages';

/** The exporters' own OpenTelemetry dependencies, bundled with them and used by nothing else. */
const EXPORTER_DEPENDENCIES = /^@opentelemetry\/otlp-/;

const exact = (names: readonly string[]) =>
  new RegExp(`^(?:${names.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})$`);

/**
 * Resolves `file` as the register's other file, left external, and each of `packages` to a module
 * that hands on what that file's `lookup` table returns for it.
 */
function takeFromFile(
  build: PluginBuild,
  file: string,
  lookup: string,
  packages: Readonly<Record<string, unknown>>,
): void {
  const namespace = `from-${lookup}`;
  build.onResolve({ filter: exact([file]) }, () => ({ path: file, external: true }));
  build.onResolve({ filter: exact(Object.keys(packages)) }, (args) => ({ path: args.path, namespace }));
  build.onLoad({ filter: /.*/, namespace }, (args) => ({
    contents: `module.exports = require(${JSON.stringify(file)}).${lookup}[${JSON.stringify(args.path)}]();`,
    loader: 'js',
  }));
}

/**
 * For the register's SDK file: the packages of exporter-packages.ts are required from
 * `./register-exporters.cjs` when first needed, not bundled; any other OTLP package would be
 * bundled twice, so the build fails on it.
 */
export const exportersFromTheirFile: Plugin = {
  name: 'exporters-from-their-file',
  setup(build) {
    takeFromFile(build, './register-exporters.cjs', 'EXPORTER_PACKAGES', EXPORTER_PACKAGES);
    build.onResolve({ filter: EXPORTER_DEPENDENCIES }, (args) => ({
      errors: [
        {
          text: `${args.path} is bundled in register-exporters.cjs; require it through exporter-packages.ts`,
        },
      ],
    }));
  },
};

/**
 * For the exporters' file: what it shares with the SDK file (shared-packages.ts) is required from
 * `./register-sdk.cjs`, one copy for both; an OpenTelemetry package in neither list fails the build,
 * rather than be bundled in both files.
 */
export const sharedFromTheSdkFile: Plugin = {
  name: 'shared-from-the-sdk-file',
  setup(build) {
    takeFromFile(build, './register-sdk.cjs', 'SHARED_PACKAGES', SHARED_PACKAGES);
    build.onResolve({ filter: /^@opentelemetry\// }, (args) =>
      EXPORTER_DEPENDENCIES.test(args.path) || args.path in EXPORTER_PACKAGES
        ? undefined
        : {
            errors: [
              {
                text: `${args.path}, used by the exporters, would be bundled in both register files; add it to shared-packages.ts`,
              },
            ],
          },
    );
  },
};
