package toolerrorprocessor

import (
	"encoding/json"
	"regexp"

	"otel-tool-errors/collector/toolerrorprocessor/internal/classify"
)

// An error result a tool returned, as its framework recorded it in a JSON attribute, read as the
// TypeScript package's classifyToolResult reads the returned value:
// - MCP `{isError: true, content}`, LlamaIndex `{isError: true, output}`, Anthropic `{is_error: true}`;
// - the AI SDK `tool-error` part `{type: 'tool-error', error}`;
// - `{status: 'error'}` (LangChain ToolMessage, REST-style);
// - the ADK contract `{success: false, error}`;
// - Mastra and VoltAgent `{error: true, message, validationErrors?}`;
// - `{error: "text"}`;
// each also as the `output` of Genkit's tool response `{output, content}` (its `tool.v2` actions).

var outputValidation = regexp.MustCompile(`(?i)output validation`)

// classifyResultText parses a recorded result and classifies it when it is an error result.
func (p *toolErrors) classifyResultText(text string) *classify.Classification {
	if !p.classifier.MayBeErrorResult(text) {
		return nil
	}
	var result any
	if json.Unmarshal([]byte(text), &result) != nil {
		return nil
	}
	// Some frameworks JSON-encode a tool's string result, which may itself be a JSON error result.
	if s, ok := result.(string); ok {
		if json.Unmarshal([]byte(s), &result) != nil {
			return nil
		}
	}
	if blocks, ok := result.([]any); ok {
		return p.classifyResultBlocks(blocks, 0)
	}
	obj, ok := result.(map[string]any)
	if !ok {
		return nil
	}
	return p.classifyResult(obj)
}

// outputEvents are the span events in which a framework records what a tool returned, where it
// writes no result attribute: the GenAI `gen_ai.choice` event's `message` (Strands Agents' tool
// spans by default: `[{"text": "..."}]`, the tool's content blocks) and the newer
// `gen_ai.client.inference.operation.details` event's `gen_ai.output.messages`
// (`[{"role": "tool", "parts": [{"type": "tool_call_response", "response": ...}]}]`).
var outputEvents = []struct{ name, attribute string }{
	{"gen_ai.choice", "message"},
	{"gen_ai.client.inference.operation.details", "gen_ai.output.messages"},
}

// readOutputEvents reads an error result recorded in the span's output event, the last one first.
func (p *toolErrors) readOutputEvents(t toolSpan) *classify.Classification {
	events := t.span.Events()
	for i := events.Len() - 1; i >= 0; i-- {
		event := events.At(i)
		for _, o := range outputEvents {
			if event.Name() != o.name {
				continue
			}
			if text := stringAttribute(event.Attributes(), o.attribute); text != "" {
				if found := p.classifyResultText(text); found != nil {
					return found
				}
			}
		}
	}
	return nil
}

// maxResultBlocks bounds the content blocks, messages and parts read in one recorded result.
const maxResultBlocks = 8

// classifyResultBlocks reads a result recorded as a list: content blocks (`{"text": ...}`,
// `{"json": ...}`, MCP's `{"type": "text", "text": ...}`) whose text or value is a JSON error result,
// or GenAI output messages whose `tool_call_response` parts hold the tool's response.
func (p *toolErrors) classifyResultBlocks(blocks []any, depth int) *classify.Classification {
	if depth > 2 {
		return nil
	}
	for i, block := range blocks {
		if i == maxResultBlocks {
			break
		}
		b, ok := block.(map[string]any)
		if !ok {
			continue
		}
		var found *classify.Classification
		switch {
		case b["parts"] != nil:
			if parts, ok := b["parts"].([]any); ok {
				found = p.classifyResultBlocks(parts, depth+1)
			}
		case b["type"] == "tool_call_response":
			found = p.classifyResultValue(b["response"], depth+1)
		case b["json"] != nil:
			found = p.classifyResultValue(b["json"], depth+1)
		default:
			if text, ok := b["text"].(string); ok {
				found = p.classifyResultValue(text, depth+1)
			}
		}
		if found != nil {
			return found
		}
	}
	return nil
}

// classifyResultValue reads one recorded value: an object, a list of blocks, or JSON text.
func (p *toolErrors) classifyResultValue(value any, depth int) *classify.Classification {
	switch v := value.(type) {
	case map[string]any:
		return p.classifyResult(v)
	case []any:
		return p.classifyResultBlocks(v, depth)
	case string:
		if !p.classifier.MayBeErrorResult(v) {
			return nil
		}
		var inner any
		if json.Unmarshal([]byte(v), &inner) != nil {
			return nil
		}
		if _, ok := inner.(string); ok {
			return nil
		}
		return p.classifyResultValue(inner, depth+1)
	}
	return nil
}

func (p *toolErrors) classifyResult(obj map[string]any) *classify.Classification {
	if output, ok := genkitToolResponse(obj); ok {
		if inner, ok := output.(map[string]any); ok {
			return p.classifyResult(inner)
		}
		return nil
	}
	c := p.classifier
	if message, ok := langChainToolMessage(obj); ok {
		if message["status"] == "error" {
			text, _ := textOf(message["content"])
			found := c.FromText(text)
			return &found
		}
		// The tool's own returned value, serialised into the message's content.
		var inner map[string]any
		if content, ok := message["content"].(string); ok && json.Unmarshal([]byte(content), &inner) == nil {
			return p.classifyResult(inner)
		}
		return nil
	}
	if obj["type"] == "tool-error" {
		if e, ok := obj["error"].(map[string]any); ok {
			found := c.Classify(shapeOf(e))
			return &found
		}
		found := c.FromText("")
		return &found
	}
	if obj["isError"] == true || obj["is_error"] == true {
		text, ok := textOf(obj["content"])
		if !ok {
			text, _ = textOf(obj["output"])
		}
		found := c.FromText(text)
		return &found
	}
	errorValue, hasError := obj["error"]
	if errorValue == true {
		message, _ := obj["message"].(string)
		if _, ok := obj["validationErrors"]; ok {
			// Bad input never ran the tool; bad output means it ran and returned what its schema refuses.
			kind := "invalid_input"
			if outputValidation.MatchString(message) {
				kind = "tool_error"
			}
			found := c.Make(kind, "tool_error", "result", 0)
			return &found
		}
		if name, _ := obj["name"].(string); name != "" && name != "Error" {
			byName := c.Classify(classify.Shape{Name: name, Message: message})
			if c.IsStructured(byName.Evidence) {
				return &byName
			}
		}
		found := c.FromText(message)
		return &found
	}
	if obj["success"] == false {
		if !hasError || errorValue == nil {
			errorValue = obj["message"]
		}
		return p.fromErrorValue(errorValue)
	}
	if obj["status"] == "error" {
		text, ok := textOf(obj["content"])
		if !ok {
			text, ok = obj["error_message"].(string)
		}
		if !ok {
			text, _ = textOf(errorValue)
		}
		found := c.FromText(text)
		return &found
	}
	if s, ok := errorValue.(string); ok && s != "" {
		return p.fromErrorValue(s)
	}
	return nil
}

// fromErrorValue classifies a returned error value like a throw, but `tool_error` rather than
// `internal` when it says nothing.
func (p *toolErrors) fromErrorValue(value any) *classify.Classification {
	c := p.classifier
	if e, ok := value.(map[string]any); ok {
		found := c.Classify(shapeOf(e))
		if found.Evidence == "fallback" {
			message, _ := e["message"].(string)
			found = c.FromText(message)
		}
		return &found
	}
	text, _ := value.(string)
	found := c.FromText(text)
	return &found
}

// langChainToolMessage: a LangChain ToolMessage as OpenInference records a Python tool's output,
// `{"type": "tool", "data": {"content": ..., "status": ...}}`.
func langChainToolMessage(obj map[string]any) (map[string]any, bool) {
	if obj["type"] != "tool" {
		return nil, false
	}
	data, ok := obj["data"].(map[string]any)
	return data, ok
}

// genkitToolResponse reads Genkit's tool response, `{"output": ..., "content": [...]}`, as its
// `tool.v2` actions record it in `genkit:output`: the tool's own value is its `output`.
func genkitToolResponse(obj map[string]any) (any, bool) {
	output, ok := obj["output"]
	if !ok {
		return nil, false
	}
	for key := range obj {
		if key != "output" && key != "content" {
			return nil, false
		}
	}
	return output, true
}

// shapeOf reads an error serialised as JSON: `name`, `code`, `message`, `status` / `statusCode`.
func shapeOf(e map[string]any) classify.Shape {
	s := classify.Shape{}
	s.Name, _ = e["name"].(string)
	s.Code, _ = e["code"].(string)
	s.Message, _ = e["message"].(string)
	for _, key := range []string{"status", "statusCode"} {
		if n, ok := e[key].(float64); ok && n == float64(int(n)) && n >= 100 && n <= 599 {
			s.Status = int(n)
			break
		}
	}
	return s
}

// textOf reads the text of MCP/Anthropic content blocks, a string, or a `{message}` object.
func textOf(value any) (string, bool) {
	switch v := value.(type) {
	case string:
		return v, true
	case []any:
		for _, block := range v {
			if b, ok := block.(map[string]any); ok {
				if text, ok := b["text"].(string); ok && text != "" {
					return text, true
				}
			}
		}
	case map[string]any:
		if message, ok := v["message"].(string); ok {
			return message, true
		}
	}
	return "", false
}
