import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Plugin } from 'esbuild';

const API = '@opentelemetry/api';
const NAMESPACE = 'api-copy';
const CHOOSER = join(__dirname, 'src', 'register', 'api-copy.ts');

/** The version in the package.json above the api's ES module entry (build/esm/index.js). */
function versionOf(esmEntry: string): string {
  const manifest = JSON.parse(readFileSync(join(dirname(esmEntry), '..', '..', 'package.json'), 'utf8')) as {
    name: string;
    version: string;
  };
  if (manifest.name !== API) throw new Error(`${esmEntry} is not in the ${API} package`);
  return manifest.version;
}

/**
 * For the register's SDK file: every import of @opentelemetry/api, its own and the bundled
 * OpenTelemetry packages', gets one module that hands on what src/register/api-copy.ts chooses at
 * start: the api's ES module build bundled here, or the installed api when that is another version.
 */
export const apiCopyChosenAtStart: Plugin = {
  name: 'api-copy-chosen-at-start',
  setup(build) {
    build.onResolve({ filter: /^@opentelemetry\/api$/ }, (args) =>
      args.pluginData === NAMESPACE ? undefined : { path: API, namespace: NAMESPACE },
    );
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, async () => {
      const bundled = await build.resolve(API, {
        kind: 'require-call',
        resolveDir: __dirname,
        pluginData: NAMESPACE,
      });
      if (bundled.errors.length > 0) return { errors: bundled.errors };
      return {
        contents:
          `module.exports = require(${JSON.stringify(CHOOSER)}).apiCopy(` +
          `() => require(${JSON.stringify(bundled.path)}), ${JSON.stringify(versionOf(bundled.path))});`,
        loader: 'js',
        resolveDir: __dirname,
      };
    });
  },
};
