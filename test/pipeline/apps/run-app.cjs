// The agent app every mode runs: PIPELINE_FRAMEWORK names the driver (drivers/<name>.cjs). It knows
// nothing of otel-tool-errors. `load` is the entry's own `require` or `import()`, so the framework
// is loaded in the entry's module format: that is what the register or the loader hook must patch.
//
// A driver exports:
// - `modules`: the framework's module ids, loaded by the entry and passed back as `modules[id]`;
// - `returnedError(modules, text, toolName)`: the framework's own returned-error result;
// - `start(modules, bodies)`: makes one tool per body (named as the shape, no input) and resolves
//   to `{ call(name), close?() }`, where `call` runs the framework's loop (a mock model or a
//   client) that calls that one tool, and resolves to what the model or the app got back, as text.
const { shapes } = require('./shapes.cjs');

async function runApp(load) {
  const driver = require(`./drivers/${process.env.PIPELINE_FRAMEWORK}.cjs`);
  const modules = {};
  for (const id of [...driver.modules, 'axios']) modules[id] = await load(id);
  const axios = modules.axios.default;

  const bodies = {};
  for (const [name, body] of Object.entries(shapes)) {
    const returnedError = (text) => driver.returnedError(modules, text, name);
    bodies[name] = () => body({ axios, returnedError });
  }
  const session = await driver.start(modules, bodies);
  for (const name of Object.keys(shapes)) {
    // One tool call at a time: each line is what the model (or the app) got back from that tool.
    const seen = await session.call(name);
    console.log(`${name}: ${seen.replaceAll('\n', '\\n')}`);
  }
  await session.close?.();
}

module.exports = { runApp };
