import type { Plugin } from 'esbuild';
import { EXPORTER_PACKAGES } from './src/register/exporter-packages';
import { SHARED_PACKAGES } from './src/register/shared-packages';

/** The exporters' own OpenTelemetry dependencies, bundled with them and used by nothing else. */
const EXPORTER_DEPENDENCIES = /^@opentelemetry\/otlp-/;

const exact = (names: readonly string[]) =>
  new RegExp(`^(?:${names.map((name) => name.replace(/[/.]/g, '\\$&')).join('|')})$`);

/** A module that hands on what a function of the register's other file returns for `name`. */
const fromFile = (file: string, lookup: string, name: string) => ({
  contents: `module.exports = require(${JSON.stringify(file)}).${lookup}[${JSON.stringify(name)}]();`,
  loader: 'js' as const,
});

/**
 * For the register's SDK file: the packages of exporter-packages.ts are required from
 * `./register-exporters.cjs` when first needed, not bundled; any other OTLP package would be
 * bundled twice, so the build fails on it.
 */
export const exportersFromTheirFile: Plugin = {
  name: 'exporters-from-their-file',
  setup(build) {
    build.onResolve({ filter: /^\.\/register-exporters\.cjs$/ }, () => ({
      path: './register-exporters.cjs',
      external: true,
    }));
    build.onResolve({ filter: exact(Object.keys(EXPORTER_PACKAGES)) }, (args) => ({
      path: args.path,
      namespace: 'exporters-file',
    }));
    build.onResolve({ filter: EXPORTER_DEPENDENCIES }, (args) => ({
      errors: [
        {
          text: `${args.path} is bundled in register-exporters.cjs; require it through exporter-packages.ts`,
        },
      ],
    }));
    build.onLoad({ filter: /.*/, namespace: 'exporters-file' }, (args) =>
      fromFile('./register-exporters.cjs', 'EXPORTER_PACKAGES', args.path),
    );
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
    build.onResolve({ filter: /^\.\/register-sdk\.cjs$/ }, () => ({
      path: './register-sdk.cjs',
      external: true,
    }));
    build.onResolve({ filter: exact(Object.keys(SHARED_PACKAGES)) }, (args) => ({
      path: args.path,
      namespace: 'sdk-file',
    }));
    build.onResolve({ filter: /^@opentelemetry\// }, (args) =>
      args.path === '@opentelemetry/api' ||
      EXPORTER_DEPENDENCIES.test(args.path) ||
      args.path in EXPORTER_PACKAGES
        ? undefined
        : {
            errors: [
              {
                text: `${args.path}, used by the exporters, would be bundled in both register files; add it to shared-packages.ts`,
              },
            ],
          },
    );
    build.onLoad({ filter: /.*/, namespace: 'sdk-file' }, (args) =>
      fromFile('./register-sdk.cjs', 'SHARED_PACKAGES', args.path),
    );
  },
};
