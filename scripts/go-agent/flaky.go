package main

import (
	"net"
	"net/http"
	"strings"
	"time"
)

// startFlakyServer serves on a free 127.0.0.1 port and fails as real APIs do: the path's first
// segment is the status to answer (/503, /429 with Retry-After, /401), /slow answers after 2 s.
// It returns the base URL.
func startFlakyServer() (string, error) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case strings.HasPrefix(r.URL.Path, "/503"):
			w.WriteHeader(http.StatusServiceUnavailable)
		case strings.HasPrefix(r.URL.Path, "/429"):
			w.Header().Set("Retry-After", "2")
			w.WriteHeader(http.StatusTooManyRequests)
		case strings.HasPrefix(r.URL.Path, "/401"):
			w.WriteHeader(http.StatusUnauthorized)
		case strings.HasPrefix(r.URL.Path, "/slow"):
			select {
			case <-time.After(2 * time.Second):
			case <-r.Context().Done(): // the client gave up (its timeout)
				return
			}
		}
		_, _ = w.Write([]byte(`{"ok": false}`))
	})
	go func() { _ = http.Serve(listener, handler) }()
	return "http://" + listener.Addr().String(), nil
}

// refusedURL is a 127.0.0.1 URL whose port was just closed: a connection to it is refused.
func refusedURL() (string, error) {
	listener, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	addr := listener.Addr().String()
	if err := listener.Close(); err != nil {
		return "", err
	}
	return "http://" + addr, nil
}
