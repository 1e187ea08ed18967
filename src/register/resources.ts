import type { ResourceDetector } from '@opentelemetry/resources';
import type { ResourceDetectorName } from './settings';
import { loadPackage } from './load';
import { noticeUser } from '../user-notice';

type Resources = typeof import('@opentelemetry/resources');

/**
 * The detectors that live in their own packages, optional peer dependencies loaded only when
 * OTEL_NODE_RESOURCE_DETECTORS names them (or `all`): each reads files or asks a cloud's metadata
 * service, which a start should not pay for unasked. Names and exports as auto-instrumentations-node
 * maps them.
 */
const DETECTOR_PACKAGES: Partial<Record<ResourceDetectorName, { name: string; exports: string[] }>> = {
  container: { name: '@opentelemetry/resource-detector-container', exports: ['containerDetector'] },
  alibaba: { name: '@opentelemetry/resource-detector-alibaba-cloud', exports: ['alibabaCloudEcsDetector'] },
  gcp: { name: '@opentelemetry/resource-detector-gcp', exports: ['gcpDetector'] },
  aws: {
    name: '@opentelemetry/resource-detector-aws',
    exports: [
      'awsEc2Detector',
      'awsEcsDetector',
      'awsEksDetector',
      'awsBeanstalkDetector',
      'awsLambdaDetector',
    ],
  },
  azure: {
    name: '@opentelemetry/resource-detector-azure',
    exports: ['azureAppServiceDetector', 'azureFunctionsDetector', 'azureVmDetector'],
  },
};

function builtIn(resources: Resources, name: ResourceDetectorName): ResourceDetector | undefined {
  switch (name) {
    case 'env':
      return resources.envDetector;
    case 'host':
      return resources.hostDetector;
    case 'os':
      return resources.osDetector;
    case 'process':
      return resources.processDetector;
    case 'serviceinstance':
      return resources.serviceInstanceIdDetector;
    default:
      return undefined;
  }
}

/**
 * The detectors for `names`; a named one whose package is not installed (or fails to load) is
 * left out, and one stderr line says which and how to install them.
 */
export function resourceDetectors(
  resources: Resources,
  names: readonly ResourceDetectorName[],
): ResourceDetector[] {
  const detectors: ResourceDetector[] = [];
  const problems: string[] = [];
  for (const name of names) {
    const own = builtIn(resources, name);
    if (own) {
      detectors.push(own);
      continue;
    }
    const pkg = DETECTOR_PACKAGES[name]!;
    try {
      const exported = loadPackage<Record<string, ResourceDetector>>(
        pkg.name,
        `the ${name} resource detector`,
      );
      detectors.push(...pkg.exports.map((key) => exported[key]).filter((detector) => detector !== undefined));
    } catch (err) {
      problems.push((err as Error).message);
    }
  }
  if (problems.length > 0) {
    noticeUser(`OTEL_NODE_RESOURCE_DETECTORS: left out; ${problems.join('; ')}`);
  }
  return detectors;
}
