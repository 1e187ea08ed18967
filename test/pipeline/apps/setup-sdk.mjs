// The NodeSDK set-up for an ESM app of docs/programmatic-setup.md (its otel.mjs): `node --import ./setup-sdk.mjs app.mjs`.
// The loader hook is registered here, before the app's own imports run, so that
// import-in-the-middle can patch the frameworks' ESM builds.
import * as nodeModule from 'node:module';
import { NodeSDK } from '@opentelemetry/sdk-node';
import * as sdkTraceBase from '@opentelemetry/sdk-trace-base';
import * as otlp from '@opentelemetry/exporter-trace-otlp-http';
import * as http from '@opentelemetry/instrumentation-http';
import * as undici from '@opentelemetry/instrumentation-undici';
import * as toolErrors from 'otel-tool-errors';
import sdkOptionsModule from './sdk-options.cjs';

const options = sdkOptionsModule.sdkOptions({ sdkTraceBase, otlp, http, undici, toolErrors });
const include = toolErrors.loaderHookInclude(options.instrumentations);
// In-thread where Node supports it (module.register is deprecated from Node 26), as docs/programmatic-setup.md does.
const hooks = await import('import-in-the-middle/register-hooks.mjs');
if (hooks.supportsSyncHooks()) hooks.register({ include });
else nodeModule.register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, { data: { include } });

const sdk = new NodeSDK(options);
sdk.start();
process.once('beforeExit', () => sdk.shutdown());
