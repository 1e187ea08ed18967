// Preloaded by this folder's whole-suite mocha config: the repository's sources and tests import
// their @opentelemetry/* packages from this folder's 3.x line (the 2.x @opentelemetry/sdk-trace-base
// becomes its 3.x equivalent), and every package shares this folder's api 1.10. Frameworks keep
// the OpenTelemetry SDKs they bundle. Synchronous hooks (Node >= 22.15) cover require() and import.
import { registerHooks } from 'node:module';

const HERE = new URL('./', import.meta.url).href;
const REPO_CODE = ['src/', 'test/', 'tsup.config.ts'].map(
  (path) => new URL(`../../${path}`, import.meta.url).href,
);
const FROM_HERE = new URL('./package.json', import.meta.url).href;
const SDK_TRACE_BASE = new URL('./sdk-trace-base-on-3x.cjs', import.meta.url).href;

const fromRepoCode = (parentURL) => REPO_CODE.some((prefix) => parentURL?.startsWith(prefix));

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (!specifier.startsWith('@opentelemetry/') || context.parentURL?.startsWith(HERE)) {
      return nextResolve(specifier, context);
    }
    if (fromRepoCode(context.parentURL) && specifier === '@opentelemetry/sdk-trace-base') {
      return { url: SDK_TRACE_BASE, format: 'commonjs', shortCircuit: true };
    }
    if (fromRepoCode(context.parentURL) || specifier === '@opentelemetry/api') {
      return nextResolve(specifier, { ...context, parentURL: FROM_HERE });
    }
    return nextResolve(specifier, context);
  },
});
