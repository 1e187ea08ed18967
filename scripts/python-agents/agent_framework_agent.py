"""A Microsoft Agent Framework (Python, agent-framework-core) agent with a scripted chat client,
traced by the framework's own OpenTelemetry spans (`execute_tool {name}`), which write `error.type`
themselves: the exception's class name (`HTTPStatusError`, `ReadTimeout`, `ConnectError`). Each
run, the model calls one tool; each tool fails for real against the flaky server: 503, 429 with
Retry-After, a client timeout, a refused connection, and an error result returned to the model.
The framework hands a raised error back to the model as an error result, so every run ends
normally. Nothing in the app classifies the failures: the collector's tool_errors processor does.

Sensitive data is on (ENABLE_SENSITIVE_DATA, as the framework's samples set it to see what a tool
did): without it a failed tool span has only `error.type` and status ERROR (no description, no
exception event), and a returned result is not recorded at all."""

import asyncio
import os

os.environ.setdefault("OTEL_SERVICE_NAME", "python-agent-framework-agent")
os.environ.setdefault("ENABLE_SENSITIVE_DATA", "true")

from agent_framework import Agent, BaseChatClient, ChatResponse, Content, FunctionInvocationLayer, Message, tool
from agent_framework.observability import ChatTelemetryLayer, enable_instrumentation

from common import CALLS, http_tools, start_tracing


@tool
def lookup_order(order_id: str) -> dict:
    """An order's status; failures come back as an error result."""
    return {"error": "order service answered HTTP 503 Service Unavailable"}


TOOLS = [tool(f) for f in http_tools(503)] + [lookup_order]


class ScriptedClient(FunctionInvocationLayer, ChatTelemetryLayer, BaseChatClient):
    """A chat client with the framework's function-calling and telemetry layers, as its own
    clients are composed: calls its one tool, then answers in text once the result is in."""

    OTEL_PROVIDER_NAME = "scripted"

    def __init__(self, tool_name, args, **kwargs):
        super().__init__(**kwargs)
        self.tool_name, self.args = tool_name, args

    async def _inner_get_response(self, *, messages, stream, options, **kwargs):
        answered = any(c.type == "function_result" for m in messages for c in m.contents)
        if answered:
            content = Content.from_text("done")
        else:
            content = Content.from_function_call("call_" + self.tool_name, self.tool_name, arguments=self.args)
        return ChatResponse(messages=[Message(role="assistant", contents=[content])])


async def main():
    provider = start_tracing()  # the framework uses the global tracer provider
    enable_instrumentation()
    for name, args in CALLS:
        agent = Agent(client=ScriptedClient(name, args), name="assistant", tools=TOOLS)
        result = await agent.run(f"please {name}")
        print(f"agent-framework: {name}: {str(result).strip()}", flush=True)
    provider.shutdown()


if __name__ == "__main__":
    asyncio.run(main())
