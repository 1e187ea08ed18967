/** The base class's method that reads a package's version, by the name it has had since 0.2x. */
interface ReadsPackageVersions {
  _extractPackageVersion?: (baseDir: string) => string | undefined;
}

/**
 * OpenTelemetry's InstrumentationBase reads and parses a package's package.json on every file of
 * that package the app loads, before it looks for a patch of that file: loading LangGraph read
 * @langchain/core's package.json 248 times (reading each once saves LangGraph's start under `--require`
 * 88 ms of CPU on Node 22, 110 on Node 24: BENCHMARKS.md, the start-up mechanisms). An installed
 * package's version does not change while the process runs, so each folder's is read once.
 */
export function readPackageVersionsOnce(instrumentation: object): void {
  const target = instrumentation as ReadsPackageVersions;
  const read = target._extractPackageVersion;
  if (typeof read !== 'function' || Object.hasOwn(target, '_extractPackageVersion')) return;
  const versions = new Map<string, string | undefined>();
  target._extractPackageVersion = (baseDir) => {
    if (!versions.has(baseDir)) versions.set(baseDir, read.call(instrumentation, baseDir));
    return versions.get(baseDir);
  };
}
