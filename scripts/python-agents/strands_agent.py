"""A Strands Agents (Python) agent with a scripted model provider, traced by Strands' own
OpenTelemetry spans (`execute_tool {name}`, GenAI conventions, no `error.type`). Each run, the model
calls one tool; each tool fails for real against the flaky server: 503, 429 with Retry-After, a
client timeout, a refused connection, and an error result returned to the model, which Strands
records only in the tool span's `gen_ai.choice` event (the span stays OK). Strands hands a raised
error back to the model as an error result, so every run ends normally. Nothing in the app
classifies the failures: the collector's tool_errors processor does."""

import json
import os

os.environ.setdefault("OTEL_SERVICE_NAME", "python-strands-agent")

from strands import Agent, tool
from strands.models.model import Model

from common import CALLS, http_tools, start_tracing


@tool
def lookup_order(order_id: str) -> dict:
    """An order's status; failures come back as an error result."""
    return {"error": "order service answered HTTP 503 Service Unavailable"}


TOOLS = [tool(f) for f in http_tools(503)] + [lookup_order]


class ScriptedModel(Model):
    """A custom model provider: calls its one tool, then answers in text once the result is in."""

    def __init__(self, tool_name, args):
        self.config = {"model_id": "scripted"}
        self.tool_name, self.args = tool_name, args

    def update_config(self, **model_config):
        self.config.update(model_config)

    def get_config(self):
        return self.config

    async def structured_output(self, output_model, prompt, system_prompt=None, **kwargs):
        raise NotImplementedError
        yield  # an async generator, as the interface declares

    async def stream(self, messages, tool_specs=None, system_prompt=None, **kwargs):
        answered = any("toolResult" in block for message in messages for block in message["content"])
        yield {"messageStart": {"role": "assistant"}}
        if answered:
            yield {"contentBlockDelta": {"delta": {"text": "done"}}}
            yield {"contentBlockStop": {}}
            yield {"messageStop": {"stopReason": "end_turn"}}
            return
        call = {"toolUseId": "call_" + self.tool_name, "name": self.tool_name}
        yield {"contentBlockStart": {"start": {"toolUse": call}}}
        yield {"contentBlockDelta": {"delta": {"toolUse": {"input": json.dumps(self.args)}}}}
        yield {"contentBlockStop": {}}
        yield {"messageStop": {"stopReason": "tool_use"}}


def main():
    provider = start_tracing()  # Strands uses the global tracer provider
    for name, args in CALLS:
        agent = Agent(model=ScriptedModel(name, args), tools=TOOLS, callback_handler=None, name="assistant")
        result = agent(f"please {name}")
        print(f"strands: {name}: {str(result).strip()}", flush=True)
    provider.shutdown()


if __name__ == "__main__":
    main()
