import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  sourcemap: true,
  target: 'node18',
  outExtension: ({ format }) => ({ js: format === 'cjs' ? '.cjs' : '.mjs' }),
};

/** Gives an ESM bundle the `require` that esbuild's lazy `require()` calls use. */
export const ESM_REQUIRE =
  "import { createRequire as __otelToolErrorsCreateRequire } from 'node:module'; const require = __otelToolErrorsCreateRequire(import.meta.url);";

export default defineConfig([
  // The library, in two module formats: `require` gets .cjs, `import` gets .mjs, each with its own .d.ts.
  // Its clean spares the register files, which the configs below write at the same time.
  {
    ...shared,
    entry: { index: 'src/index.ts' },
    format: ['cjs', 'esm'],
    dts: true,
    clean: ['!register.cjs*', '!register-esm.mjs*'],
  },
  // The zero-code entry points run for their side effects: one format each, no types.
  // `--require otel-tool-errors/register` loads register.cjs, `--import` loads register-esm.mjs.
  { ...shared, entry: { register: 'src/register.ts' }, format: ['cjs'] },
  // The register loads SDK packages on demand with `require` (src/register/load.ts); in the ESM
  // entry that needs a `require` of its own.
  {
    ...shared,
    entry: { 'register-esm': 'src/register-esm.ts' },
    format: ['esm'],
    banner: { js: ESM_REQUIRE },
  },
]);
