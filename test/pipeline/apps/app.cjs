// A CommonJS agent app: `node [--require otel-tool-errors/register] app.cjs`.
const { runApp } = require('./run-app.cjs');

runApp((id) => require(id));
