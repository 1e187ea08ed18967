import { readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import type { Plugin } from 'esbuild';

const SEMCONV = '@opentelemetry/semantic-conventions';
const REQUIRED =
  /\b(?:const|var|let)\s+([A-Za-z_$][\w$]*)\s*=\s*require\("@opentelemetry\/semantic-conventions"\);/;

/**
 * The names a CommonJS file uses from `require("@opentelemetry/semantic-conventions")`: every use of
 * the variable it is assigned to must read one name (`semantic_conventions_1.ATTR_URL_FULL`), as
 * TypeScript compiles an import. Anything else (the object passed on, destructured, indexed) throws,
 * so the build fails rather than bundle a name short.
 */
export function semconvNamesUsed(source: string, file: string): string[] {
  const variable = REQUIRED.exec(source)?.[1];
  if (variable === undefined)
    throw new Error(`${file}: requires ${SEMCONV} in a form this build cannot read`);
  const names = new Set<string>();
  const uses = new RegExp(
    `(?<![\\w$.])${variable.replace(/\$/g, '\\$')}(?![\\w$])(\\.[A-Za-z_$][\\w$]*)?`,
    'g',
  );
  let declarations = 0;
  for (const use of source.matchAll(uses)) {
    if (use[1]) names.add(use[1].slice(1));
    else if (declarations++ > 0)
      throw new Error(`${file}: uses ${variable} (${SEMCONV}) other than by name at offset ${use.index}`);
  }
  if (names.size === 0) throw new Error(`${file}: requires ${SEMCONV} but reads no name from it`);
  return [...names].sort();
}

/**
 * The OpenTelemetry packages that ship only CommonJS (instrumentation-http, instrumentation-undici)
 * `require` the semantic conventions' CommonJS index: thousands of constants, all built at load
 * (4 ms of a start on Node 22). This plugin hands each such file a module that re-exports, from the
 * package's ES module build, only the names the file reads; esbuild then bundles only those, and
 * fails the build if the installed version lacks one of them.
 */
export const semconvNamesOnly: Plugin = {
  name: 'semconv-names-only',
  setup(build) {
    // Paths relative to the project, so that the bundle names no directory of the machine building it.
    const root = build.initialOptions.absWorkingDir ?? process.cwd();
    build.onResolve({ filter: /^@opentelemetry\/semantic-conventions$/ }, (args) =>
      args.kind === 'require-call'
        ? { path: relative(root, args.importer), namespace: 'semconv-names' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'semconv-names' }, (args) => {
      const file = resolve(root, args.path);
      const names = semconvNamesUsed(readFileSync(file, 'utf8'), args.path);
      return {
        contents: `export { ${names.join(', ')} } from '${SEMCONV}';`,
        loader: 'js',
        resolveDir: dirname(file),
      };
    });
  },
};
