// Preloaded (mocha --require) by scripts/version-matrix.mjs: the spec under test loads the
// framework from the scratch install of one release instead of the checkout's node_modules.
// VERSION_MATRIX_DIR is the folder whose node_modules has that release; VERSION_MATRIX_REDIRECT
// maps each name the spec requires (an npm alias of the checkout, such as `ai-v7`, or the
// package's own name) to the name installed there: `ai-v7=ai,@ai-sdk/otel`.
// Module._resolveFilename is where both require() and require-in-the-middle ask where a name
// lives, so the instrumentation hooks the scratch copy under its real path and version. Code in
// the scratch install resolves its own dependencies from there; the runner links every
// @opentelemetry/api in it to the checkout's, so there is one API (and one global tracer
// provider) for CommonJS and ESM alike.
'use strict';
const Module = require('node:module');
const { join } = require('node:path');

const dir = process.env.VERSION_MATRIX_DIR;
const redirect = process.env.VERSION_MATRIX_REDIRECT;
if (!dir || redirect === undefined) {
  throw new Error('test-matrix/redirect.cjs needs VERSION_MATRIX_DIR and VERSION_MATRIX_REDIRECT');
}

const names = (redirect ? redirect.split(',') : []).map((entry) => {
  const [from, to = from] = entry.split('=');
  return { from, to };
});
// A module of the scratch folder, for the resolver to start from.
const parent = new Module(join(dir, 'index.js'));
parent.filename = parent.id;
parent.paths = Module._nodeModulePaths(dir);

let redirected = 0;
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  if (typeof request === 'string') {
    for (const { from, to } of names) {
      if (request === from || request.startsWith(`${from}/`)) {
        redirected++;
        const filename = resolveFilename.call(
          this,
          to + request.slice(from.length),
          parent,
          ...rest.slice(1),
        );
        if (!filename.startsWith(dir)) throw new Error(`version matrix: ${request} resolved outside ${dir}`);
        return filename;
      }
    }
  }
  return resolveFilename.call(this, request, ...rest);
};

// A run whose spec never asked for the framework tested nothing of the release.
process.on('exit', () => {
  if (names.length > 0 && redirected === 0) {
    console.error(`version matrix: the spec never loaded ${redirect} from ${dir}`);
    process.exitCode = 1;
  }
});
