// An ESM agent app: `node [--import otel-tool-errors/register] app.mjs`.
import runAppModule from './run-app.cjs';

await runAppModule.runApp((id) => import(id));
