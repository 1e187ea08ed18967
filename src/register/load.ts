/**
 * The register loads each OpenTelemetry package only when the settings need it, so a start with
 * one exporter (or none, or OTEL_SDK_DISABLED) pays only for what it uses. The packages that not
 * every set-up needs are optional peer dependencies: a missing one gets an error that names it.
 */
export function loadPackage<T>(name: string, neededFor: string): T {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand, see above
    return require(name) as T;
  } catch (err) {
    if ((err as { code?: string }).code === 'MODULE_NOT_FOUND' && String(err).includes(name)) {
      throw new Error(`${neededFor} needs the package ${name}: npm install ${name}`);
    }
    throw err;
  }
}
