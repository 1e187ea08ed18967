package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
)

type cityInput struct {
	City string `json:"city"`
}

type symbolInput struct {
	Symbol string `json:"symbol"`
}

type orderInput struct {
	OrderID string `json:"order_id"`
}

// apis are the URLs the tools call, each with the API key in its query as many HTTP APIs take it:
// Go's *url.Error quotes the whole URL, key and all.
type apis struct {
	base, refused, key string
}

func (a apis) url(base, path string) string {
	return base + path + "?api_key=" + url.QueryEscape(a.key)
}

// getJSON is a tool's HTTP call: errors from the client as they come (*url.Error), and a status
// other than 200 as the error text most Go clients write, "503 Service Unavailable".
func getJSON(client *http.Client, u string, api string) (map[string]any, error) {
	resp, err := client.Get(u)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%s API: %s", api, resp.Status)
	}
	var out map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		return nil, fmt.Errorf("%s API: %w", api, err)
	}
	return out, nil
}

// defineTools registers the agent's tools; each fails for real against the flaky server.
func defineTools(g *genkit.Genkit, a apis) []ai.ToolRef {
	client := &http.Client{Timeout: 5 * time.Second}
	impatient := &http.Client{Timeout: 300 * time.Millisecond}
	return []ai.ToolRef{
		// 503: the status only in the error's text.
		genkit.DefineTool(g, "get_weather", "Current weather in a city",
			func(ctx *ai.ToolContext, in cityInput) (map[string]any, error) {
				return getJSON(client, a.url(a.base, "/503/weather"), "weather")
			}),
		// 429 with Retry-After.
		genkit.DefineTool(g, "search_news", "Latest news about a city",
			func(ctx *ai.ToolContext, in cityInput) (map[string]any, error) {
				return getJSON(client, a.url(a.base, "/429/news"), "news")
			}),
		// 401, the URL (and its key) quoted in the error as many Go clients do.
		genkit.DefineTool(g, "get_account", "The user's account",
			func(ctx *ai.ToolContext, in cityInput) (map[string]any, error) {
				u := a.url(a.base, "/401/account")
				resp, err := client.Get(u)
				if err != nil {
					return nil, err
				}
				defer resp.Body.Close()
				return nil, fmt.Errorf("GET %s: %s", u, resp.Status)
			}),
		// The client's timeout: `Get "...": context deadline exceeded (Client.Timeout exceeded ...)`.
		genkit.DefineTool(g, "get_stock", "A stock's price",
			func(ctx *ai.ToolContext, in symbolInput) (map[string]any, error) {
				return getJSON(impatient, a.url(a.base, "/slow/stock"), "stock")
			}),
		// A refused connection, wrapped: `rates: Get "...": dial tcp ...: connect: connection refused`.
		genkit.DefineTool(g, "get_rates", "Exchange rates",
			func(ctx *ai.ToolContext, in cityInput) (map[string]any, error) {
				out, err := getJSON(client, a.url(a.refused, "/rates"), "rates")
				if err != nil {
					return nil, fmt.Errorf("rates: %w", err)
				}
				return out, nil
			}),
		// A tool that returns its failure to the model as a result, and does not fail.
		genkit.DefineTool(g, "lookup_order", "An order's status",
			func(ctx *ai.ToolContext, in orderInput) (map[string]any, error) {
				out, err := getJSON(client, a.url(a.base, "/503/orders"), "orders")
				if err != nil {
					return map[string]any{"error": err.Error()}, nil
				}
				return out, nil
			}),
	}
}
