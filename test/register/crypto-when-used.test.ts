import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect } from 'chai';
import { cryptoWhenUsed } from '../../tsup-crypto-when-used';
import { bundleScratch } from '../helpers/scratch-bundle';

const load = createRequire(join(__dirname, '..', '..', 'package.json'));

describe("the register's bundle: crypto required when first used", () => {
  it("bundles the resources package's service-instance detector without requiring crypto until it runs", async () => {
    const text = await bundleScratch(
      "export { serviceInstanceIdDetector } from '@opentelemetry/resources';",
      [cryptoWhenUsed],
    );
    const required: string[] = [];
    const recordingRequire = (name: string): unknown => {
      required.push(name);
      return load(name);
    };
    const module = {
      exports: {} as Record<string, { detect: () => { attributes: Record<string, unknown> } }>,
    };
    new Function('module', 'exports', 'require', text)(module, module.exports, recordingRequire);
    expect(
      required.filter((name) => /crypto/.test(name)),
      'at load',
    ).to.deep.equal([]);

    const id = module.exports.serviceInstanceIdDetector!.detect().attributes['service.instance.id'];
    expect(id).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(
      required.filter((name) => /crypto/.test(name)),
      'once detected',
    ).to.have.length(1);
  });

  it('fails the build on an import of another name from crypto', async () => {
    const failure = await bundleScratch("export { createHash } from 'node:crypto';", [cryptoWhenUsed]).then(
      () => undefined,
      (err: Error) => err,
    );
    expect(failure?.message).to.match(
      /No matching export in "crypto-when-used:crypto" for import "createHash"/,
    );
  });
});
