import { spawn } from 'node:child_process';
import { once } from 'node:events';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as installedApi from '@opentelemetry/api';
import { expect } from 'chai';
import { apiCopy } from '../../src/register/api-copy';
import { useRegisterBed } from '../helpers/register-bed';

/**
 * Which @opentelemetry/api the register runs: its own copy of the installed api's release, handed to
 * the app's `require` of the api too, else the installed one, so that the app's own registrations
 * through the api are still accepted (the api's global registry takes them from one version only).
 */

const ROOT = join(__dirname, '..', '..');
const FIXTURES = join(__dirname, 'fixtures');
const INSTALLED_FOLDER = join(ROOT, 'node_modules', '@opentelemetry', 'api');
const INSTALLED_VERSION = (
  JSON.parse(readFileSync(join(INSTALLED_FOLDER, 'package.json'), 'utf8')) as { version: string }
).version;

describe('the register runs the installed @opentelemetry/api when something loaded it first', () => {
  const bundled = { bundled: true } as unknown as typeof installedApi;

  it('loaded here, by this test: that copy, and the bundled one of the same release is never loaded', () => {
    const loaded: string[] = [];
    const chosen = apiCopy({ [INSTALLED_VERSION]: () => (loaded.push(INSTALLED_VERSION), bundled) }, '1.0.0');
    // The installed package's own singletons, not a stand-in.
    expect(chosen.trace).to.equal(installedApi.trace);
    expect(chosen.context).to.equal(installedApi.context);
    expect(loaded).to.deep.equal([]);
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
   * node_modules, above it. With no `apiFolder`, the folder is outside the repository, where no api
   * resolves, with links to the two packages the register requires.
   */
  function appWithApi(apiFolder: string | undefined): string {
    const app = mkdtempSync(join(apiFolder ? join(ROOT, '.cache') : tmpdir(), 'own-api-'));
    apps.push(app);
    const dist = join(app, 'node_modules', 'otel-tool-errors', 'dist');
    mkdirSync(dist, { recursive: true });
    const bundles = dirname(bed.bundles.cjs);
    for (const file of readdirSync(bundles)) cpSync(join(bundles, file), join(dist, file));
    if (apiFolder) cpSync(apiFolder, join(app, 'node_modules', '@opentelemetry', 'api'), { recursive: true });
    else {
      for (const name of ['require-in-the-middle', 'import-in-the-middle'])
        symlinkSync(join(ROOT, 'node_modules', name), join(app, 'node_modules', name));
    }
    for (const script of ['own-api.cjs', 'own-api.mjs', 'no-api.cjs'])
      cpSync(join(FIXTURES, script), join(app, script));
    return app;
  }

  async function run(app: string, flag: '--require' | '--import', script?: string) {
    const entry = join(
      app,
      'node_modules',
      'otel-tool-errors',
      'dist',
      flag === '--require' ? 'register.cjs' : 'register-esm.mjs',
    );
    const child = spawn(
      process.execPath,
      [flag, entry, join(app, script ?? (flag === '--require' ? 'own-api.cjs' : 'own-api.mjs'))],
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
    return JSON.parse(stdout) as { apiFiles: [number, number]; accepted: boolean; said: string[] };
  }

  const installs = [
    { version: INSTALLED_VERSION, folder: INSTALLED_FOLDER, bundled: true },
    { version: '1.10.0', folder: join(ROOT, 'node_modules', 'opentelemetry-api-1.10.0'), bundled: true },
    { version: '1.9.0', folder: join(ROOT, 'node_modules', 'opentelemetry-api-1.9.0'), bundled: false },
  ];

  for (const { version, folder, bundled } of installs) {
    it(`api ${version} installed, --require: ${bundled ? "the register's copy of that release runs, and the app's require of the api gets it: no api file loads" : 'the start runs the installed api (no copy of that release is carried)'}; the app's own logger is taken`, async () => {
      const app = appWithApi(folder);
      const result = await run(app, '--require');
      // With a copy of another release the api refuses it: "Registration of version v1.9.0 for
      // diag does not match previously registered API v1.9.1".
      expect(result.accepted, JSON.stringify(result.said)).to.equal(true);
      expect(result.said).to.deep.equal([]);
      // [in the module cache at the app's first line, after its require]: none until the app's
      // require of the api starts the register; then the carried copy stands in for the api's entry
      // file, else the installed api's files (44 or more) load.
      expect(result.apiFiles[0]).to.equal(0);
      if (bundled) expect(result.apiFiles[1]).to.equal(1);
      else expect(result.apiFiles[1]).to.be.greaterThan(40);
    });

    it(`api ${version} installed, --import (an ES module app): the app's own logger is taken, and its span exported`, async () => {
      const app = appWithApi(folder);
      const { accepted, said } = await run(app, '--import');
      expect({ accepted, said }).to.deep.equal({ accepted: true, said: [] });
    });
  }

  it('an installed api that throws when loaded, --require: the register still starts, on its own copy, and says nothing', async () => {
    const app = appWithApi(join(ROOT, 'node_modules', 'opentelemetry-api-1.9.0'));
    writeFileSync(
      join(app, 'node_modules', '@opentelemetry', 'api', 'build', 'src', 'index.js'),
      "throw new Error('a broken install');\n",
    );
    const result = (await run(app, '--require', 'no-api.cjs')) as unknown;
    expect(result).to.deep.equal({ resolvable: true, version: INSTALLED_VERSION });
  });

  it("no api installed, --require: the register runs its copy of the release a fresh install gets, and the app's span is exported", async () => {
    const app = appWithApi(undefined);
    // Once, this start said "the register needs the package @opentelemetry/api" and ran nothing.
    const result = (await run(app, '--require', 'no-api.cjs')) as unknown;
    expect(result).to.deep.equal({ resolvable: false, version: INSTALLED_VERSION });
  });
});
