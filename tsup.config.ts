import { defineConfig } from 'tsup';

// One build, two module formats: `require` gets .cjs, `import` gets .mjs, each with its own .d.ts.
export default defineConfig({
  entry: { index: 'src/index.ts' },
  format: ['cjs', 'esm'],
  dts: true,
  clean: true,
  sourcemap: true,
  target: 'node18',
  outExtension: ({ format }) => ({ js: format === 'cjs' ? '.cjs' : '.mjs' }),
});
