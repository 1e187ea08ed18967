// Command scrub reads a JSON array of texts on stdin and writes the status messages the processor
// would make of them, as a JSON array: test/rules/go-scrubber.test.ts runs the secret corpus
// through it.
package main

import (
	"encoding/json"
	"fmt"
	"os"

	"otel-tool-errors/collector/toolerrorprocessor/internal/redact"
	"otel-tool-errors/collector/toolerrorprocessor/internal/rules"
)

func main() {
	var texts []string
	if err := json.NewDecoder(os.Stdin).Decode(&texts); err != nil {
		fmt.Fprintln(os.Stderr, "scrub: expected a JSON array of strings on stdin:", err)
		os.Exit(2)
	}
	r, err := rules.Load()
	if err != nil {
		fmt.Fprintln(os.Stderr, "scrub:", err)
		os.Exit(1)
	}
	s, err := redact.New(r)
	if err != nil {
		fmt.Fprintln(os.Stderr, "scrub:", err)
		os.Exit(1)
	}
	out := make([]string, len(texts))
	for i, text := range texts {
		out[i] = s.Message(text)
	}
	if err := json.NewEncoder(os.Stdout).Encode(out); err != nil {
		fmt.Fprintln(os.Stderr, "scrub:", err)
		os.Exit(1)
	}
}
