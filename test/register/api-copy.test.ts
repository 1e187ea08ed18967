import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as installedApi from '@opentelemetry/api';
import { expect } from 'chai';
import { apiCopy } from '../../src/register/api-copy';
import { useRegisterBed } from '../helpers/register-bed';

/**
 * Which @opentelemetry/api the register runs: its bundled copy when the installed api is the same
 * version, else the installed one, so that the app's own registrations through the api are still
 * accepted (the api's global registry takes them from one version only).
 */

const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(__dirname, 'fixtures');
const INSTALLED_FOLDER = join(ROOT, 'node_modules', '@opentelemetry', 'api');
const INSTALLED_VERSION = (
  JSON.parse(readFileSync(join(INSTALLED_FOLDER, 'package.json'), 'utf8')) as { version: string }
).version;

describe('the register runs its bundled @opentelemetry/api only for the same installed version', () => {
  const bundled = { bundled: true } as unknown as typeof installedApi;

  it('the installed version: the bundled copy, loaded only then', () => {
    let loaded = 0;
    const chosen = apiCopy(() => (loaded++, bundled), INSTALLED_VERSION);
    expect([chosen, loaded]).to.deep.equal([bundled, 1]);
  });

  it('another version: the installed copy, and the bundled one is never loaded', () => {
    let loaded = 0;
    const chosen = apiCopy(() => (loaded++, bundled), '1.0.0');
    // The installed package's own singletons, not a stand-in.
    expect(chosen.trace).to.equal(installedApi.trace);
    expect(chosen.context).to.equal(installedApi.context);
    expect(loaded).to.equal(0);
  });
});

describe('an app with its own @opentelemetry/api, under the register (child processes)', function () {
  this.timeout(60_000);
  const bed = useRegisterBed({ receiverPerTest: true });
  const apps: string[] = [];
  after(() => apps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  /**
   * An app folder as npm lays it out: the register's files in node_modules/otel-tool-errors/dist,
   * beside the api copied from `apiFolder`; everything else resolves from the repository's
   * node_modules, above it.
   */
  function appWithApi(apiFolder: string): string {
    const app = mkdtempSync(join(ROOT, '.cache', 'own-api-'));
    apps.push(app);
    const dist = join(app, 'node_modules', 'otel-tool-errors', 'dist');
    mkdirSync(dist, { recursive: true });
    const bundles = dirname(bed.bundles.cjs);
    for (const file of readdirSync(bundles)) cpSync(join(bundles, file), join(dist, file));
    cpSync(apiFolder, join(app, 'node_modules', '@opentelemetry', 'api'), { recursive: true });
    for (const script of ['own-api.cjs', 'own-api.mjs']) cpSync(join(FIXTURES, script), join(app, script));
    return app;
  }

  async function run(app: string, flag: '--require' | '--import') {
    const entry = join(
      app,
      'node_modules',
      'otel-tool-errors',
      'dist',
      flag === '--require' ? 'register.cjs' : 'register-esm.mjs',
    );
    const child = spawn(
      process.execPath,
      [flag, entry, join(app, flag === '--require' ? 'own-api.cjs' : 'own-api.mjs')],
      {
        cwd: app,
        env: {
          PATH: process.env.PATH ?? '',
          OTEL_SERVICE_NAME: 'own-api',
          // The default protocol, http/protobuf, whose exporter is bundled: OTLP/JSON's would load from
          // the repository's node_modules, with the api there.
          OTEL_EXPORTER_OTLP_ENDPOINT: bed.receiver.endpoint,
        },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect([code, stderr]).to.deep.equal([0, '']);
    const traces = bed.receiver.bodies.filter((body) => body.includes('app-work'));
    expect(traces, 'one protobuf export with the span').to.have.length(1);
    return JSON.parse(stdout) as {
      loadedAtStart?: string[];
      apiFolders?: string[];
      accepted: boolean;
      said: string[];
    };
  }

  const otherVersionFolder = join(ROOT, 'node_modules', 'opentelemetry-api-1.9.0');

  it(`the same version (${INSTALLED_VERSION}), --require: the start loads no file of the installed api, and the app's logger is taken`, async () => {
    const app = appWithApi(INSTALLED_FOLDER);
    const result = await run(app, '--require');
    expect(result).to.deep.equal({ loadedAtStart: [], accepted: true, said: [] });
  });

  it("another version (1.9.0), --require: the start runs the installed api, and the app's logger is taken", async () => {
    const app = appWithApi(otherVersionFolder);
    const result = await run(app, '--require');
    // With the bundled copy the api refuses it: "Registration of version v1.9.0 for diag does not
    // match previously registered API v1.9.1".
    expect(result).to.deep.equal({
      loadedAtStart: [join(app, 'node_modules', '@opentelemetry', 'api')],
      accepted: true,
      said: [],
    });
  });

  for (const folder of [INSTALLED_FOLDER, otherVersionFolder]) {
    it(`${folder === INSTALLED_FOLDER ? 'the same version' : 'another version'}, --import (an ES module app): the app's logger is taken, and one api copy is installed`, async () => {
      const app = appWithApi(folder);
      const result = await run(app, '--import');
      expect(result).to.deep.equal({
        apiFolders: [join(app, 'node_modules', '@opentelemetry', 'api')],
        accepted: true,
        said: [],
      });
    });
  }
});
