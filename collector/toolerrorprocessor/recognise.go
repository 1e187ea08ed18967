package toolerrorprocessor

import (
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"otel-tool-errors/collector/toolerrorprocessor/internal/rules"
)

// recogniser tells tool spans by the families' declarations. It runs on every span, so each
// attribute key any declaration names is looked up once a span, not once a declaration.
type recogniser struct {
	keys    []string
	matches []compiledMatch
}

type compiledMatch struct {
	family                     *rules.SpanFamily
	nameEquals, prefix, suffix string
	equals                     []keyValue
	present                    []int
}

type keyValue struct {
	key  int
	want string
}

// maxKeys bounds the distinct attribute keys of the declarations (and the configuration).
const maxKeys = 32

func newRecogniser(families []rules.SpanFamily) *recogniser {
	r := &recogniser{}
	index := map[string]int{}
	keyOf := func(key string) int {
		if i, ok := index[key]; ok {
			return i
		}
		index[key] = len(r.keys)
		r.keys = append(r.keys, key)
		return index[key]
	}
	for i := range families {
		for _, m := range families[i].Recognise {
			c := compiledMatch{family: &families[i], nameEquals: m.NameEquals, prefix: m.NamePrefix, suffix: m.NameSuffix}
			for key, want := range m.Attributes {
				c.equals = append(c.equals, keyValue{keyOf(key), want})
			}
			for _, key := range m.Present {
				c.present = append(c.present, keyOf(key))
			}
			r.matches = append(r.matches, c)
		}
	}
	return r
}

// family returns the family of a tool span, or nil.
func (r *recogniser) family(span ptrace.Span) *rules.SpanFamily {
	name := span.Name()
	attributes := span.Attributes()
	var values [maxKeys]pcommon.Value
	var found [maxKeys]bool
	if attributes.Len() > 0 {
		for i, key := range r.keys {
			values[i], found[i] = attributes.Get(key)
		}
	}
	for i := range r.matches {
		m := &r.matches[i]
		if m.nameEquals != "" && name != m.nameEquals ||
			m.prefix != "" && !strings.HasPrefix(name, m.prefix) ||
			m.suffix != "" && !strings.HasSuffix(name, m.suffix) {
			continue
		}
		ok := true
		for _, kv := range m.equals {
			if !found[kv.key] || values[kv.key].Type() != pcommon.ValueTypeStr || values[kv.key].Str() != kv.want {
				ok = false
				break
			}
		}
		for _, key := range m.present {
			ok = ok && found[key]
		}
		if ok {
			return m.family
		}
	}
	return nil
}
