import { join } from 'node:path';
import type { Plugin } from 'esbuild';
import { apiVersionAbove } from './src/register/api-copy';

const API = '@opentelemetry/api';
const NAMESPACE = 'api-copy';
const CHOOSER = join(__dirname, 'src', 'register', 'api-copy.ts');

/**
 * The api releases the register's SDK file carries, as devDependencies: the one a fresh install of
 * this package gets beside its 2.x SDK (also run when no api is installed), and the newest, which
 * apps on the 3.x SDK have.
 */
const BUNDLED_APIS = [API, 'opentelemetry-api-1.10.0'];

/**
 * For the register's SDK file: every import of @opentelemetry/api, its own and the bundled
 * OpenTelemetry packages', gets one module that hands on what src/register/api-copy.ts chooses at
 * start: the bundled release that is the installed api's version, or the installed api itself.
 */
export const apiCopyChosenAtStart: Plugin = {
  name: 'api-copy-chosen-at-start',
  setup(build) {
    build.onResolve({ filter: /^@opentelemetry\/api$/ }, (args) =>
      args.pluginData === NAMESPACE ? undefined : { path: API, namespace: NAMESPACE },
    );
    build.onLoad({ filter: /.*/, namespace: NAMESPACE }, async () => {
      const loaders: string[] = [];
      const versions: string[] = [];
      for (const name of BUNDLED_APIS) {
        const bundled = await build.resolve(name, {
          kind: 'require-call',
          resolveDir: __dirname,
          pluginData: NAMESPACE,
        });
        if (bundled.errors.length > 0) return { errors: bundled.errors };
        const version = apiVersionAbove(bundled.path);
        if (version === undefined) throw new Error(`${bundled.path} is not in the ${API} package`);
        versions.push(version);
        loaders.push(`${JSON.stringify(versions.at(-1))}: () => require(${JSON.stringify(bundled.path)})`);
      }
      return {
        contents:
          `module.exports = require(${JSON.stringify(CHOOSER)}).apiCopy(` +
          `{ ${loaders.join(', ')} }, ${JSON.stringify(versions[0])});`,
        loader: 'js',
        resolveDir: __dirname,
      };
    });
  },
};
