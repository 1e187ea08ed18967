// Genkit: generate() with a model made by defineModel that asks for one tool (named in the prompt)
// and then answers with what the tool gave back. Genkit's own telemetry makes the tool spans.
const { describe } = require('../describe.cjs');

module.exports = {
  modules: ['genkit'],
  // Genkit has no error-result type: a tool returns any value, `{ error }` by convention.
  returnedError: (_modules, text) => ({ error: text }),
  async start(modules, bodies) {
    const { genkit, z } = modules.genkit;
    const ai = genkit({});
    const tools = Object.entries(bodies).map(([name, body]) =>
      ai.defineTool(
        { name, description: `the ${name} tool`, inputSchema: z.object({}), outputSchema: z.any() },
        () => body(),
      ),
    );
    const model = ai.defineModel({ name: 'pipeline', supports: { tools: true } }, async (request) => {
      const last = request.messages.at(-1);
      if (last.role === 'tool') {
        const text = describe(last.content[0].toolResponse.output);
        return { message: { role: 'model', content: [{ text }] }, finishReason: 'stop' };
      }
      const name = request.messages[0].content[0].text;
      const toolRequest = { name, ref: `call_${name}`, input: {} };
      return { message: { role: 'model', content: [{ toolRequest }] }, finishReason: 'stop' };
    });
    return {
      // A tool that throws fails generate(): the app gets the tool's own error.
      call: (name) => ai.generate({ model, prompt: name, tools }).then((response) => response.text, describe),
    };
  },
};
