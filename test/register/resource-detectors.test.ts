import { join } from 'node:path';
import { hostDetector } from '@opentelemetry/resources';
import { expect } from 'chai';
import { useRegisterBed } from '../helpers/register-bed';
import { runNode } from '../helpers/run-node';

/**
 * OTEL_NODE_RESOURCE_DETECTORS under the register, as auto-instrumentations-node reads it: each
 * selection is checked by the resource attributes the exported spans carry.
 */

const FIXTURES = join(__dirname, 'fixtures');
const CONTAINER_ID = '3f2a9c0e5b7d41a8c6e19f0b2d4a7c8e9f1b3d5a7c9e0f2b4d6a8c0e2f4b6d8a';

describe('OTEL_NODE_RESOURCE_DETECTORS under the register', function () {
  this.timeout(60_000);
  const bed = useRegisterBed({ receiverPerTest: true });

  /** Runs one tool call under `--require` and returns the resource of its span and the stderr. */
  async function resourceWith(env: Record<string, string>, preload: string[] = []) {
    const run = await runNode(
      [...preload.flatMap((file) => ['--require', file]), '--require', bed.bundles.cjs],
      join(FIXTURES, 'service.cjs'),
      {
        OTEL_SERVICE_NAME: 'detectors-test',
        OTEL_EXPORTER_OTLP_ENDPOINT: bed.receiver.endpoint,
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_METRICS_EXPORTER: 'none',
        CALLS: '1',
        ...env,
      },
    );
    expect(run.code).to.equal(0);
    const [span] = bed.receiver.spans();
    expect(span, 'the tool span was exported').to.not.equal(undefined);
    return { resource: span!.resource, stderr: run.stderr };
  }

  it('unset: host, process and env, as before (no os, no container)', async () => {
    const { resource, stderr } = await resourceWith({});
    expect(stderr).to.equal('');
    expect(resource).to.include({ 'service.name': 'detectors-test' });
    expect(resource).to.have.property('host.name');
    expect(resource).to.have.property('process.pid');
    expect(resource).to.not.have.property('os.type');
    expect(resource).to.not.have.property('container.id');
  });

  it("unset: the host attributes are the SDK host detector's, the machine id included", async () => {
    const { resource } = await resourceWith({});
    const sdk = hostDetector.detect().attributes ?? {};
    const expected = {
      'host.name': sdk['host.name'],
      'host.arch': sdk['host.arch'],
      'host.id': await sdk['host.id'],
    };
    expect({
      'host.name': resource['host.name'],
      'host.arch': resource['host.arch'],
      'host.id': resource['host.id'],
    }).to.deep.equal(expected);
  });

  it('os,env: the os attributes and the service name, no host or process', async () => {
    const { resource, stderr } = await resourceWith({ OTEL_NODE_RESOURCE_DETECTORS: 'os,env' });
    expect(stderr).to.equal('');
    expect(resource).to.include({ 'service.name': 'detectors-test', 'os.type': 'linux' });
    expect(resource).to.not.have.property('host.name');
    expect(resource).to.not.have.property('process.pid');
  });

  it('none: only the SDK defaults (OTEL_SERVICE_NAME is the env detector, so it is off too)', async () => {
    const { resource } = await resourceWith({ OTEL_NODE_RESOURCE_DETECTORS: 'none' });
    expect(resource['service.name']).to.match(/^unknown_service/);
    expect(resource).to.not.have.property('host.name');
    expect(resource).to.not.have.property('process.pid');
  });

  it('serviceinstance,env: a random service.instance.id (crypto, required when the detector runs)', async () => {
    const { resource, stderr } = await resourceWith({ OTEL_NODE_RESOURCE_DETECTORS: 'serviceinstance,env' });
    expect(stderr).to.equal('');
    expect(resource['service.instance.id']).to.match(
      /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    expect(resource).to.include({ 'service.name': 'detectors-test' });
  });

  it('container: the container id read from the cgroup file', async () => {
    const { resource, stderr } = await resourceWith(
      { OTEL_NODE_RESOURCE_DETECTORS: 'container,env', CGROUP_FILE: join(FIXTURES, 'cgroup-v1') },
      [join(FIXTURES, 'cgroup-preload.cjs')],
    );
    expect(stderr).to.equal('');
    expect(resource).to.include({ 'container.id': CONTAINER_ID, 'service.name': 'detectors-test' });
  });

  it('a named detector whose package is not installed: one line naming it, the others still run', async () => {
    const { resource, stderr } = await resourceWith({ OTEL_NODE_RESOURCE_DETECTORS: 'aws,host,env' });
    expect(stderr.trim().split('\n')).to.deep.equal([
      'otel-tool-errors/register: OTEL_NODE_RESOURCE_DETECTORS: left out; the aws resource detector needs ' +
        'the package @opentelemetry/resource-detector-aws: npm install @opentelemetry/resource-detector-aws',
    ]);
    expect(resource).to.have.property('host.name');
    expect(resource).to.include({ 'service.name': 'detectors-test' });
  });
});
