// The agent app every mode runs: PIPELINE_FRAMEWORK names the driver (drivers/<name>.cjs). It knows
// nothing of otel-tool-errors. `load` is the entry's own `require` or `import()`, so the framework
// is loaded in the entry's module format: that is what the register or the loader hook must patch.
const { shapes } = require('./shapes.cjs');

async function runApp(load) {
  const driver = require(`./drivers/${process.env.PIPELINE_FRAMEWORK}.cjs`);
  const modules = {};
  for (const id of [...driver.modules, 'axios']) modules[id] = await load(id);
  const axios = modules.axios.default;

  const bodies = {};
  for (const [name, body] of Object.entries(shapes)) {
    if (name === 'returned_error' && !driver.returnedError) continue;
    const returnedError = (text) => driver.returnedError(modules, text, name);
    bodies[name] = () => body({ axios, returnedError });
  }
  const session = await driver.start(modules, bodies);
  for (const name of Object.keys(shapes)) {
    // One tool call at a time: each line is what the model (or the app) got back from that tool.
    const seen = name in bodies ? await session.call(name) : 'no such shape';
    console.log(`${name}: ${seen.replaceAll('\n', '\\n')}`);
  }
  await session.close?.();
}

module.exports = { runApp };
