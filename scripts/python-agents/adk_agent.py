"""A Google ADK (Python) agent with a scripted model, traced by ADK's own OpenTelemetry spans
(`execute_tool {name}`). Each run, the model calls one tool; each tool fails for real against the
flaky server: 500, 429 with Retry-After, a timeout, and an error result returned to the model.
Nothing in the app classifies the failures: the collector's tool_errors processor does."""

import asyncio
import os
from typing import AsyncGenerator

os.environ.setdefault("OTEL_SERVICE_NAME", "python-adk-agent")
# ADK records a tool's result on its span (gen_ai.tool.call.result) only when content capture is
# on, as a user who wants returned errors seen opts in; without it, a returned error leaves no trace.
os.environ.setdefault("OTEL_SEMCONV_STABILITY_OPT_IN", "gen_ai_latest_experimental")
os.environ.setdefault("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", "SPAN_ONLY")

from google.adk.agents import LlmAgent
from google.adk.models.base_llm import BaseLlm
from google.adk.models.llm_request import LlmRequest
from google.adk.models.llm_response import LlmResponse
from google.adk.runners import InMemoryRunner
from google.genai import types

from common import CALLS, http_tools, start_tracing


def lookup_order(order_id: str) -> dict:
    """An order's status; failures come back as the ADK contract's error result."""
    return {"status": "error", "error_message": "order service answered HTTP 503 Service Unavailable"}


TOOLS = http_tools(500)[:3] + [lookup_order]
CALLS = [call for call in CALLS if call[0] != "get_rates"]


class ScriptedModel(BaseLlm):
    """Calls the tool it is given, then answers in text once the tool's response is in."""

    tool: str = ""
    args: dict = {}

    async def generate_content_async(
        self, llm_request: LlmRequest, stream: bool = False
    ) -> AsyncGenerator[LlmResponse, None]:
        answered = any(
            part.function_response is not None
            for content in llm_request.contents or []
            for part in content.parts or []
        )
        if answered:
            part = types.Part.from_text(text="done")
        else:
            part = types.Part.from_function_call(name=self.tool, args=self.args)
        yield LlmResponse(content=types.Content(role="model", parts=[part]))


async def run_one(tool, args):
    agent = LlmAgent(
        name="assistant",
        model=ScriptedModel(model="scripted", tool=tool, args=args),
        instruction="Use the tools.",
        tools=TOOLS,
    )
    runner = InMemoryRunner(agent=agent, app_name="e2e")
    session = await runner.session_service.create_session(app_name="e2e", user_id="u")
    message = types.Content(role="user", parts=[types.Part.from_text(text=f"please {tool}")])
    try:
        async for _ in runner.run_async(user_id="u", session_id=session.id, new_message=message):
            pass
        return "returned"
    except Exception as error:  # the tool's failure ends the run, as it does for ADK's users
        return f"raised {type(error).__name__}"


async def main():
    provider = start_tracing()
    for tool, args in CALLS:
        print(f"adk: {tool}: {await run_one(tool, args)}", flush=True)
    provider.shutdown()


if __name__ == "__main__":
    asyncio.run(main())
