"""A LangGraph (Python) agent with a scripted model, traced by OpenInference's LangChain
instrumentation (its TOOL spans). The model calls four tools at once; each fails for real against
the flaky server: 500, 429 with Retry-After, a timeout, and an error result returned to the model.
Nothing in the app classifies the failures: the collector's tool_errors processor does."""

import os
from typing import Annotated, TypedDict

from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage
from langchain_core.tools import tool
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.prebuilt import ToolNode
from openinference.instrumentation.langchain import LangChainInstrumentor

from common import http_tools, start_tracing

os.environ.setdefault("OTEL_SERVICE_NAME", "python-langgraph-agent")


@tool
def lookup_order(order_id: str) -> dict:
    """An order's status; failures come back as an error result."""
    return {"success": False, "error": "order service answered HTTP 503 Service Unavailable"}


TOOLS = [tool(f) for f in http_tools(500)[:3]] + [lookup_order]


class State(TypedDict):
    messages: Annotated[list[AnyMessage], add_messages]


def main():
    provider = start_tracing()
    LangChainInstrumentor().instrument(tracer_provider=provider)
    model = GenericFakeChatModel(
        messages=iter(
            [
                AIMessage(
                    content="",
                    tool_calls=[
                        {"name": "get_weather", "args": {"city": "Lyon"}, "id": "call_1"},
                        {"name": "search_news", "args": {"query": "otel"}, "id": "call_2"},
                        {"name": "get_stock", "args": {"symbol": "ACME"}, "id": "call_3"},
                        {"name": "lookup_order", "args": {"order_id": "42"}, "id": "call_4"},
                    ],
                ),
                AIMessage(content="done"),
            ]
        )
    )

    def call_model(state: State):
        return {"messages": [model.invoke(state["messages"])]}

    def route(state: State):
        return "tools" if state["messages"][-1].tool_calls else END

    graph = StateGraph(State)
    graph.add_node("model", call_model)
    # The tools' errors go back to the model as error ToolMessages, as LangGraph's users set it.
    graph.add_node("tools", ToolNode(TOOLS, handle_tool_errors=True))
    graph.add_edge(START, "model")
    graph.add_conditional_edges("model", route, ["tools", END])
    graph.add_edge("tools", "model")
    result = graph.compile().invoke({"messages": [HumanMessage(content="check everything")]})
    for message in result["messages"]:
        if message.type == "tool":
            print(f"langgraph: {message.name}: {message.status}: {str(message.content)[:80]}", flush=True)
    provider.shutdown()


if __name__ == "__main__":
    main()
