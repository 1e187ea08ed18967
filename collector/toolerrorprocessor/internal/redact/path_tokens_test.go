package redact

import (
	"testing"

	"otel-tool-errors/collector/toolerrorprocessor/internal/rules"
)

// The secret position of a known secret-bearing URL path shape is redacted on any host and however
// short the secret, with the shape's ids kept, as the TypeScript package's scrubMessage does
// (test/rules/go-scrubber.test.ts runs the whole secret corpus through both).
func TestPathTokensAreRedactedOnAnyHostWhateverTheirLength(t *testing.T) {
	r, err := rules.Load()
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(r)
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"POST https://relay.example.org/services/T0ABCD1EF/B0GHIJ2KL/q8Xw4Vb6 failed: 500":   "POST https://relay.example.org/services/T0ABCD1EF/B0GHIJ2KL/[REDACTED] failed: 500",
		"GET https://tg-proxy.example.net/bot987654:k2Jd9sLq/getMe: 401":                     "GET https://tg-proxy.example.net/bot987654:[REDACTED]/getMe: 401",
		"webhook https://chat.example.com/api/v10/webhooks/112233445566778899/k3jd9slq gone": "webhook https://chat.example.com/api/v10/webhooks/112233445566778899/[REDACTED] gone",
		"zap https://zap.example.io/hooks/catch/123456/x7k2m9p4/ refused":                    "zap https://zap.example.io/hooks/catch/123456/[REDACTED]/ refused",
		"GET https://api.example.com/v1/services/billing/items failed":                       "GET https://api.example.com/v1/services/billing/items failed",
	}
	for in, want := range cases {
		if got := s.Message(in); got != want {
			t.Errorf("Message(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}
