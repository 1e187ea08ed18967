package toolerrorprocessor

import (
	"errors"
	"fmt"

	"otel-tool-errors/collector/toolerrorprocessor/internal/rules"
)

// Config is the processor's configuration.
type Config struct {
	// ToolSpans recognises more spans as tool spans, beyond the frameworks in the rules file:
	// a span matching any entry is one. Each entry's parts must all hold: name_equals,
	// name_prefix, name_suffix, attributes (exact string values), present (attribute keys).
	ToolSpans []rules.SpanMatch `mapstructure:"tool_spans"`
	// MaxErrorTypes bounds the distinct free-form `error.type` values (class names the rules do
	// not list) this processor writes before `_OTHER`. Default 100, as in the TypeScript package.
	MaxErrorTypes int `mapstructure:"max_error_types"`

	// Prevents unkeyed literal initialisation.
	_ struct{}
}

// Validate checks that every configured tool span condition says something.
func (c *Config) Validate() error {
	var errs []error
	for i, m := range c.ToolSpans {
		if m.NameEquals == "" && m.NamePrefix == "" && m.NameSuffix == "" && len(m.Attributes) == 0 &&
			len(m.Present) == 0 {
			errs = append(errs, fmt.Errorf("tool_spans[%d]: give at least one of name_equals, name_prefix, name_suffix, attributes, present", i))
		}
	}
	if c.MaxErrorTypes < 0 {
		errs = append(errs, fmt.Errorf("max_error_types must not be negative, got %d", c.MaxErrorTypes))
	}
	return errors.Join(errs...)
}
