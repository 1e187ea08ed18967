import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  sourcemap: true,
  target: 'node18',
  outExtension: ({ format }) => ({ js: format === 'cjs' ? '.cjs' : '.mjs' }),
};

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
  { ...shared, entry: { 'register-esm': 'src/register-esm.ts' }, format: ['esm'] },
]);
