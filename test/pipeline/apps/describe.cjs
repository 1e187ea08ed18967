/** What an app prints for a value or an error it got back: stable text, no stack. */
function describe(value) {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  return typeof value === 'string' ? value : JSON.stringify(value);
}

module.exports = { describe };
