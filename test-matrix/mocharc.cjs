// The mocha settings of the version matrix (scripts/version-matrix.mjs): the default suite's, with
// the preload that loads the framework from the scratch install of the release under test. The
// runner names the spec and the tests of it to run.
module.exports = {
  'node-option': ['import=tsx'],
  require: [`${__dirname}/redirect.cjs`],
  extension: ['ts'],
  timeout: 20000,
  reporter: 'dot',
};
