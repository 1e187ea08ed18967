package toolerrorprocessor

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Real failures of Go's net/http against servers on 127.0.0.1, each URL with a key in its query,
// recorded as Genkit for Go records a tool's error (its Go type, its text): the classification is
// the one JavaScript's errors get, and the key is gone from everything the span keeps.
func TestRealGoHTTPFailuresReadAsInEveryLanguage(t *testing.T) {
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(2 * time.Second):
		}
	}))
	defer slow.Close()
	untrusted := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer untrusted.Close()
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refusedURL := "http://" + closed.Addr().String() + "/rates?api_key=s3cr3t-Qm7Tb2Xv9Lp4"
	closed.Close()
	canceled, cancel := context.WithCancel(context.Background())
	cancel()

	get := func(client *http.Client, ctx context.Context, url string) error {
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		resp, err := client.Do(req)
		if err == nil {
			resp.Body.Close()
			return fmt.Errorf("no failure from %s", url)
		}
		return err
	}
	key := "?api_key=s3cr3t-Qm7Tb2Xv9Lp4"
	for _, c := range []struct {
		name, errorType, kind string
		err                   error
	}{
		{"the client's timeout", "timeout", "timeout", get(&http.Client{Timeout: 100 * time.Millisecond}, context.Background(), slow.URL+"/stock"+key)},
		{"a refused dial, wrapped with %w", "ECONNREFUSED", "network", fmt.Errorf("rates: %w", get(http.DefaultClient, context.Background(), refusedURL))},
		{"a certificate no authority signed", "UNABLE_TO_GET_ISSUER_CERT_LOCALLY", "network", get(http.DefaultClient, context.Background(), untrusted.URL+"/x"+key)},
		{"a context canceled", "url.Error", "canceled", get(http.DefaultClient, canceled, slow.URL+"/x"+key)},
	} {
		t.Run(c.name, func(t *testing.T) {
			td := ptrace.NewTraces()
			span := executeToolSpan(td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans(), "tool",
				fmt.Sprintf("%T", c.err), c.err.Error(), "")
			process(t, td)
			errorType, _ := span.Attributes().Get("error.type")
			kind, _ := span.Attributes().Get("tool.error_kind")
			if errorType.Str() != c.errorType || kind.Str() != c.kind {
				t.Errorf("%T %q: %s/%s, want %s/%s", c.err, c.err.Error(), errorType.Str(), kind.Str(), c.errorType, c.kind)
			}
			for _, text := range []string{span.Status().Message(), exceptionText(span, "exception.message")} {
				if strings.Contains(text, "s3cr3t") {
					t.Errorf("the key is left in %q", text)
				}
			}
		})
	}
}
