/**
 * `npm run demo`: starts the flaky service, then runs the agent under the zero-code register.
 *
 * The service runs here, outside the instrumented process, so the agent's trace holds only its
 * own spans. With no OTEL_EXPORTER_OTLP_ENDPOINT there is no collector to send to, so exporting is
 * turned off (rather than retrying localhost:4318 and printing connection errors) and the agent's
 * table, read from the spans in process, is the whole output.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { refusedPort, startFlakyService } from './flaky-service.mjs';

const service = await startFlakyService();
const env = {
  ...process.env,
  DEMO_SERVICE_URL: service.url,
  DEMO_REFUSED_URL: `http://127.0.0.1:${await refusedPort()}`,
  OTEL_SERVICE_NAME: process.env.OTEL_SERVICE_NAME || 'otel-tool-errors-demo',
};
if (!env.OTEL_EXPORTER_OTLP_ENDPOINT && !env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) {
  env.OTEL_TRACES_EXPORTER = 'none';
  env.OTEL_METRICS_EXPORTER = 'none';
  env.OTEL_LOGS_EXPORTER = 'none';
}

const agent = spawn(
  process.execPath,
  ['--import', 'otel-tool-errors/register', fileURLToPath(new URL('./agent.mjs', import.meta.url))],
  // From the package root, so `otel-tool-errors/register` resolves to this checkout's dist/.
  { cwd: fileURLToPath(new URL('../..', import.meta.url)), env, stdio: 'inherit' },
);
const [code, signal] = await once(agent, 'exit');
await service.close();
if (signal) console.error(`agent stopped by ${signal}`);
process.exitCode = code ?? 1;
