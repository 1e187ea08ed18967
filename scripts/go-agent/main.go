// A Genkit for Go agent whose tools fail for real against a local flaky server, traced by
// Genkit's own spans through the OpenTelemetry SDK and an OTLP/HTTP exporter. A scripted model
// (no network) asks for one tool a turn; Genkit's tool loop runs it and, when it fails, the
// generation fails, as Genkit does with a tool's error.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

// calls are the tool requests the scripted model makes, one a generation.
var calls = []*ai.ToolRequest{
	{Name: "get_weather", Ref: "call_1", Input: map[string]any{"city": "Paris"}},
	{Name: "search_news", Ref: "call_2", Input: map[string]any{"city": "Paris"}},
	{Name: "get_account", Ref: "call_3", Input: map[string]any{"city": "Paris"}},
	{Name: "get_stock", Ref: "call_4", Input: map[string]any{"symbol": "ACME"}},
	{Name: "get_rates", Ref: "call_5", Input: map[string]any{"city": "Paris"}},
	{Name: "lookup_order", Ref: "call_6", Input: map[string]any{"order_id": "A-1"}},
}

// scriptedModel asks for the tool named by the user's message, then answers once the tool's
// response is in the conversation.
func scriptedModel(ctx context.Context, req *ai.ModelRequest, _ ai.ModelStreamCallback) (*ai.ModelResponse, error) {
	last := req.Messages[len(req.Messages)-1]
	if last.Role == ai.RoleTool {
		return &ai.ModelResponse{Message: ai.NewModelTextMessage("Done."), FinishReason: ai.FinishReasonStop}, nil
	}
	for _, call := range calls {
		if call.Name == last.Text() {
			return &ai.ModelResponse{
				Message:      &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{ai.NewToolRequestPart(call)}},
				FinishReason: ai.FinishReasonStop,
			}, nil
		}
	}
	return nil, fmt.Errorf("scripted model: no call for %q", last.Text())
}

func run(ctx context.Context) error {
	shutdown, err := startTracing(ctx)
	if err != nil {
		return err
	}
	defer func() {
		flushCtx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := shutdown(flushCtx); err != nil {
			fmt.Fprintln(os.Stderr, "go-agent: flushing spans:", err)
		}
	}()

	base, err := startFlakyServer()
	if err != nil {
		return err
	}
	refused, err := refusedURL()
	if err != nil {
		return err
	}
	g := genkit.Init(ctx)
	model := genkit.DefineModel(g, "scripted/agent",
		&ai.ModelOptions{Supports: &ai.ModelSupports{Tools: true, Multiturn: true}}, scriptedModel)
	tools := defineTools(g, apis{base: base, refused: refused, key: os.Getenv("E2E_AGENT_SECRET")})

	for _, call := range calls {
		resp, err := genkit.Generate(ctx, g, ai.WithModel(model), ai.WithTools(tools...), ai.WithPrompt(call.Name))
		if err != nil {
			fmt.Printf("%s: failed: %v\n", call.Name, err)
			continue
		}
		fmt.Printf("%s: %s\n", call.Name, resp.Text())
	}
	return nil
}

func main() {
	if err := run(context.Background()); err != nil {
		fmt.Fprintln(os.Stderr, "go-agent:", err)
		os.Exit(1)
	}
}
