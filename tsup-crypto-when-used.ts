import type { Plugin } from 'esbuild';

/** The names the bundled code imports from `crypto`, each required when first called. */
const CRYPTO_FUNCTIONS = ['randomUUID'];

/**
 * `@opentelemetry/resources` imports `randomUUID` from `crypto` at load, for its service-instance
 * detector, which a start runs only when OTEL_NODE_RESOURCE_DETECTORS names it; loading `crypto`
 * costs about 2 ms of CPU of a Node 22 start (measured alone). This plugin hands every module of the
 * bundle that imports `crypto` a module whose functions require it when first called. It is an ES
 * module, so an import of any other name from `crypto` fails the build.
 */
export const cryptoWhenUsed: Plugin = {
  name: 'crypto-when-used',
  setup(build) {
    build.onResolve({ filter: /^(node:)?crypto$/, namespace: 'file' }, () => ({
      path: 'crypto',
      namespace: 'crypto-when-used',
    }));
    build.onLoad({ filter: /.*/, namespace: 'crypto-when-used' }, () => ({
      contents: CRYPTO_FUNCTIONS.map(
        (name) => `export function ${name}(...args) { return require('node:crypto').${name}(...args); }`,
      ).join('\n'),
      loader: 'js',
    }));
  },
};
