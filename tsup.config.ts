import { defineConfig, type Options } from 'tsup';
import { cryptoWhenUsed } from './tsup-crypto-when-used';
import { exportersFromTheirFile, sharedFromTheSdkFile } from './tsup-exporters-file';
import { frameworkDeclarationsAsData } from './tsup-framework-declarations';
import { semconvNamesOnly } from './tsup-semconv-names';

const shared: Options = {
  sourcemap: true,
  target: 'node18',
  outExtension: ({ format }) => ({ js: format === 'cjs' ? '.cjs' : '.mjs' }),
};

/**
 * The register's SDK, in one file that both entry points load: the OpenTelemetry packages it
 * depends on are bundled into it, so a start reads and compiles one file (from a V8 code cache kept
 * after the start where Node has a compile cache folder, src/register/sdk-file.ts) instead of about 300. What is not
 * bundled:
 * - `@opentelemetry/api`, which the app and the register must share (one global registry);
 * - import-in-the-middle, whose loader hook and the instrumentation's `Hook` must be one module;
 * - require-in-the-middle, whose wrapper of `require` is then the frame Node sees calling a
 *   package's `require`: inside node_modules, Node's deprecation warnings for packages (DEP0040
 *   `punycode`) stay as quiet as without the register;
 * - the optional peer dependencies (gRPC and OTLP/JSON trace exporters, resource detectors),
 *   loaded by name when configured.
 * Code only some start-ups need (the HTTP instrumentations) stays in the file but runs only when
 * first required; the OTLP exporters and the metrics SDK, needed at the first export or
 * measurement, are in a file of their own (REGISTER_EXPORTERS), which a start does not read.
 */
export const REGISTER_SDK: Options = {
  ...shared,
  entry: { 'register-sdk': 'src/register/sdk.ts' },
  format: ['cjs'],
  external: ['@opentelemetry/api', 'import-in-the-middle', 'require-in-the-middle'],
  noExternal: [/^@opentelemetry\/(?!api$)/],
  // The packages' ES module builds: what they import from each other is then bound directly instead
  // of through CommonJS interop, which copied every export of @opentelemetry/semantic-conventions
  // (thousands) once per importing file at each start.
  esbuildOptions: (options) => {
    options.mainFields = ['module', 'main'];
  },
  // The packages with no ES module build get only the semantic conventions they read.
  esbuildPlugins: [semconvNamesOnly, exportersFromTheirFile, cryptoWhenUsed],
};

/**
 * The OTLP exporters and the metrics SDK (src/register/exporter-packages.ts), which the SDK file
 * requires on the first export or measurement; what they share with it (the api, core, resources)
 * they take from it (src/register/shared-packages.ts), so that each package has one copy.
 */
export const REGISTER_EXPORTERS: Options = {
  ...REGISTER_SDK,
  entry: { 'register-exporters': 'src/register/exporter-packages.ts' },
  external: [],
  esbuildPlugins: [semconvNamesOnly, sharedFromTheSdkFile],
};

/**
 * The zero-code entry points: small files that turn on the compile cache, then load the SDK file
 * through it. Each framework's modules start the register: the adapters' declarations are in them as
 * data, so that they load no adapter (tsup-framework-declarations.ts).
 */
const entry: Options = { ...shared, esbuildPlugins: [frameworkDeclarationsAsData] };
export const REGISTER_ENTRIES: Options[] = [
  // `--require otel-tool-errors/register` loads register.cjs.
  { ...entry, entry: { register: 'src/register.ts' }, format: ['cjs'] },
  // `--import otel-tool-errors/register` loads register-esm.mjs, which runs register-esm-start.cjs.
  {
    ...entry,
    entry: { 'register-esm': 'src/register-esm.ts' },
    format: ['esm'],
  },
  { ...entry, entry: { 'register-esm-start': 'src/register/esm-start.ts' }, format: ['cjs'] },
  // Where Node runs module hooks only off-thread, the hook it registers (in the loader thread).
  { ...entry, entry: { 'register-off-thread-hook': 'src/register/off-thread-hook.ts' }, format: ['esm'] },
];

export default defineConfig([
  // The library, in two module formats: `require` gets .cjs, `import` gets .mjs, each with its own .d.ts.
  // Its clean spares the register files, which the configs below write at the same time.
  {
    ...shared,
    entry: { index: 'src/index.ts' },
    format: ['cjs', 'esm'],
    dts: true,
    clean: ['!register*'],
  },
  REGISTER_SDK,
  REGISTER_EXPORTERS,
  ...REGISTER_ENTRIES,
]);
