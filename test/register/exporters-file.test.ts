import type { Plugin } from 'esbuild';
import { expect } from 'chai';
import { exportersFromTheirFile, sharedFromTheSdkFile } from '../../tsup-exporters-file';
import { bundleScratch } from '../helpers/scratch-bundle';

/** `source` bundled as the register's builds do, with `plugin`. */
const bundle = (source: string, plugin: Plugin) => bundleScratch(source, [plugin], ['@opentelemetry/api']);

const failure = (built: Promise<string>) =>
  built.then(
    () => undefined,
    (err: Error) => err.message,
  );

describe("the register's two files: each OpenTelemetry package bundled once", () => {
  it('the SDK file requires an exporter package from the exporters file, and bundles none of its code', async () => {
    const text = await bundle(
      "module.exports = () => require('@opentelemetry/exporter-trace-otlp-proto');",
      exportersFromTheirFile,
    );
    expect(text).to.include(
      'require("./register-exporters.cjs").EXPORTER_PACKAGES["@opentelemetry/exporter-trace-otlp-proto"]()',
    );
    expect(text).to.not.include('node_modules/@opentelemetry/otlp-');
  });

  it('the SDK file refuses an exporter dependency required directly', async () => {
    expect(
      await failure(bundle("require('@opentelemetry/otlp-transformer');", exportersFromTheirFile)),
    ).to.match(/otlp-transformer is bundled in register-exporters\.cjs/);
  });

  it('the exporters file takes what it shares from the SDK file, and refuses a package in neither list', async () => {
    const text = await bundle(
      "module.exports = [require('@opentelemetry/core'), require('@opentelemetry/resources')];",
      sharedFromTheSdkFile,
    );
    expect(text).to.include('require("./register-sdk.cjs").SHARED_PACKAGES["@opentelemetry/core"]()');
    expect(text).to.include('require("./register-sdk.cjs").SHARED_PACKAGES["@opentelemetry/resources"]()');
    expect(text).to.not.include('node_modules/@opentelemetry/core/');
    expect(await failure(bundle("require('@opentelemetry/sdk-trace-base');", sharedFromTheSdkFile))).to.match(
      /sdk-trace-base, used by the exporters, would be bundled in both register files/,
    );
  });
});
