module.exports = {
  'node-option': ['import=tsx'],
  extension: ['ts'],
  // The Google ADK spec first, while few instrumentations exist: under mocha, OpenTelemetry gives
  // each instrumentation its own require-in-the-middle hook (no singleton), each a layer that
  // resolves every later require again, and ADK loads about 2,500 files (about 6 s more per
  // instrumentation made before it under tsx; late in the run its load passed 180 s).
  spec: ['test/instrumentation/google-adk.test.ts', 'test/**/*.test.ts'],
  timeout: 20000,
  reporter: 'spec',
};
