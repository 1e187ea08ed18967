// Package redact keeps secrets out of the status messages the processor writes and the exception
// events it passes on, with the redaction rules of the TypeScript package (its src/redact/text.ts
// and exception.ts, carried in the rules file).
package redact

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"otel-tool-errors/collector/toolerrorprocessor/internal/rules"
)

// Scrubber removes secrets from text. Safe for concurrent use.
type Scrubber struct {
	redacted       string
	maxLength      int
	maxTextLength  int
	frameLineStart string
	frameMarker    *rules.Matcher
	frameLine      *regexp.Regexp
	patterns       []*rules.Matcher
	prefilter      *rules.MatcherSet
	minOpaqueRun   int
	bearerOrBasic  *regexp.Regexp
	schemeOnly     *regexp.Regexp
	percentEscapes *regexp.Regexp
	whitespace     *regexp.Regexp
}

// New compiles the redaction rules.
func New(r *rules.Rules) (*Scrubber, error) {
	s := &Scrubber{
		redacted:       r.Redaction.Redacted,
		maxLength:      r.Redaction.MaxStatusMessageLength,
		maxTextLength:  r.Redaction.MaxExceptionTextLength,
		minOpaqueRun:   r.Redaction.MinOpaqueRun,
		frameLineStart: r.Redaction.StackFrameLineStart,
		bearerOrBasic:  regexp.MustCompile(`(?i)^(bearer|basic)$`),
		schemeOnly:     regexp.MustCompile(`(?i)^[a-z][a-z0-9+.-]*://$`),
		percentEscapes: regexp.MustCompile(`(?:%[0-9A-Fa-f]{2})+`),
		whitespace:     regexp.MustCompile(`[\s\x{85}\x{A0}\x{2028}\x{2029}]+`),
	}
	frameLine, err := r.Redaction.StackFrameLine.Compile()
	if err != nil {
		return nil, fmt.Errorf("stack frame line: %w", err)
	}
	s.frameLine = frameLine
	if s.frameMarker, err = r.Redaction.StackFrameMarker.CompileMatcher(); err != nil {
		return nil, fmt.Errorf("stack frame marker: %w", err)
	}
	for i, p := range r.Redaction.Patterns {
		re, err := p.CompileMatcher()
		if err != nil {
			return nil, fmt.Errorf("redaction pattern %d: %w", i, err)
		}
		s.patterns = append(s.patterns, re)
	}
	if s.prefilter, err = rules.NewMatcherSet(s.patterns); err != nil {
		return nil, err
	}
	return s, nil
}

// Message makes a short, single-line status description with no credentials, query strings or
// userinfo, as the TypeScript package's scrubMessage does.
func (s *Scrubber) Message(message string) string {
	// Cut first: the patterns then only ever see a bounded string.
	if utf8.RuneCountInString(message) > s.maxLength*4 {
		message = firstRunes(message, s.maxLength*4)
	}
	return truncate(s.toOneLine(s.Scrub(message)), s.maxLength)
}

// Text makes an exception's message safe to keep: no secrets, its lines kept, cut to the
// exception text length, as the TypeScript package's redactText does.
func (s *Scrubber) Text(text string) string {
	if len(text) > s.maxTextLength*4 && utf8.RuneCountInString(text) > s.maxTextLength*4 {
		text = firstRunes(text, s.maxTextLength*4)
	}
	return truncate(s.Scrub(text), s.maxTextLength)
}

// Stack makes an exception's stacktrace safe to keep, as the TypeScript package's redactStack
// does: its frame lines (V8's `    at fn (file:1:2)`, Java's `\tat pkg.Class.method(File.java:42)`
// and `\t... 12 more`, Go's function and location lines), none with a URL, are code locations and
// are kept as they are; runs of the other lines (a message, a `Caused by:` line, a Python
// traceback's source line, which may hold a key) are scrubbed, each run whole. A V8 stack of only
// frame lines after its head, none with a URL, has its head scrubbed alone without reading its
// lines one by one; a stack with no frame marker (a Python traceback) is scrubbed whole.
func (s *Scrubber) Stack(stack string) string {
	if len(stack) > s.maxTextLength*4 && utf8.RuneCountInString(stack) > s.maxTextLength*4 {
		return s.Text(stack)
	}
	if framesAt := strings.Index(stack, s.frameLineStart); framesAt != -1 && s.onlyFrameLines(stack, framesAt) {
		return truncate(s.Scrub(stack[:framesAt])+stack[framesAt:], s.maxTextLength)
	}
	if !s.frameMarker.MatchString(stack) {
		return truncate(s.Scrub(stack), s.maxTextLength)
	}
	lines := strings.Split(stack, "\n")
	frames := make([]bool, len(lines))
	for i, line := range lines {
		frames[i] = s.isFrameLine(line)
	}
	runs := make([]string, 0, 4)
	start := 0
	for i := 1; i <= len(lines); i++ {
		if i < len(lines) && frames[i] == frames[start] {
			continue
		}
		run := strings.Join(lines[start:i], "\n")
		if !frames[start] {
			run = s.Scrub(run)
		}
		runs = append(runs, run)
		start = i
	}
	return truncate(strings.Join(runs, "\n"), s.maxTextLength)
}

// onlyFrameLines: every line from `from` (a line break) on is a V8 frame line, and none holds a URL.
func (s *Scrubber) onlyFrameLines(text string, from int) bool {
	rest := text[from:]
	if strings.Contains(rest, "://") {
		return false
	}
	for rest != "" {
		if !strings.HasPrefix(rest, s.frameLineStart) {
			return false
		}
		next := strings.IndexByte(rest[1:], '\n')
		if next == -1 {
			return true
		}
		rest = rest[1+next:]
	}
	return true
}

// isFrameLine: a line that matches the rules' frame line and holds no URL.
func (s *Scrubber) isFrameLine(line string) bool {
	return !strings.Contains(line, "://") && s.frameLine.MatchString(line)
}

// Scrub replaces every secret the rules know, then again in the text with its percent-escapes
// decoded (a URL's query ends at its first space, so before `%20` is decoded).
func (s *Scrubber) Scrub(text string) string {
	once := s.ReplaceSecrets(text)
	if !strings.Contains(once, "%") {
		return once
	}
	return s.ReplaceSecrets(s.decodePercent(once))
}

// ReplaceSecrets replaces every secret the patterns and the opaque-run scan find; no truncation.
// A pattern runs only on text holding one of its literals; one scan finds which (and another
// after each replacement, which changes the text). The rules file's two `mayHoldSecret`
// expressions, which gate all the patterns in the TypeScript package, are not run here: every
// pattern needs one of their literals, so they never change an answer, and Go's regexp takes
// about 0.2 ms to scan either over a 1.6 KB Python traceback.
func (s *Scrubber) ReplaceSecrets(text string) string {
	may := s.prefilter.MayMatch(text)
	out := text
	for i, re := range s.patterns {
		if may&(1<<uint(i)) == 0 {
			continue
		}
		if replaced := s.replaceAll(re, out); replaced != out {
			out = replaced
			may = s.prefilter.MayMatch(out)
		}
	}
	return s.replaceOpaqueRuns(out)
}

// replaceAll keeps the part before a secret (group 1: a scheme, a header or key name, `bearer`)
// and its separator (group 2), as the TypeScript replacer does.
func (s *Scrubber) replaceAll(re *rules.Matcher, text string) string {
	matches := re.FindAllStringSubmatchIndex(text, -1)
	if matches == nil {
		return text
	}
	var b strings.Builder
	last := 0
	for _, m := range matches {
		b.WriteString(text[last:m[0]])
		last = m[1]
		if len(m) < 4 || m[2] < 0 {
			b.WriteString(s.redacted)
			continue
		}
		prefix := text[m[2]:m[3]]
		switch {
		case s.bearerOrBasic.MatchString(prefix):
			b.WriteString(prefix + " " + s.redacted)
		case s.schemeOnly.MatchString(prefix):
			b.WriteString(prefix + s.redacted + "@")
		case strings.Contains(prefix, "://"):
			b.WriteString(prefix)
		default:
			b.WriteString(prefix)
			if len(m) >= 6 && m[4] >= 0 {
				b.WriteString(text[m[4]:m[5]])
			}
			b.WriteString(s.redacted)
		}
	}
	b.WriteString(text[last:])
	return b.String()
}

func isRunCharacter(c byte) bool {
	return c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' ||
		c == '_' || c == '-'
}

// replaceOpaqueRuns replaces long runs of token alphabet that look random (an AWS secret key, a
// random API key, a long hex string), a hand-written linear scan.
func (s *Scrubber) replaceOpaqueRuns(text string) string {
	var out strings.Builder
	changed := false
	copiedTo, start := 0, 0
	for i := 0; i <= len(text); i++ {
		if i < len(text) && isRunCharacter(text[i]) {
			continue
		}
		if i-start >= s.minOpaqueRun {
			end := i
			for end < len(text) && end-i < 2 && text[end] == '=' {
				end++
			}
			run := text[start:end]
			kept := s.opaqueOrKept(run)
			if kept != run {
				out.WriteString(text[copiedTo:start])
				out.WriteString(kept)
				copiedTo = end
				changed = true
			}
			i = end
		}
		start = i + 1
	}
	if !changed {
		return text
	}
	out.WriteString(text[copiedTo:])
	return out.String()
}

func (s *Scrubber) opaqueOrKept(run string) string {
	if !strings.Contains(run, "/") {
		if looksRandom(run) {
			return s.redacted
		}
		return run
	}
	if len(run) == 40 && looksRandom(run) {
		return s.redacted
	}
	parts := strings.Split(run, "/")
	for i, part := range parts {
		if len(part) >= s.minOpaqueRun && looksRandom(part) {
			parts[i] = s.redacted
		}
	}
	return strings.Join(parts, "/")
}

func looksRandom(run string) bool {
	var digit, lower, upper, hexLetter, nonHex bool
	for i := 0; i < len(run); i++ {
		c := run[i]
		switch {
		case c >= '0' && c <= '9':
			digit = true
		case c >= 'a' && c <= 'z':
			lower = true
			if c <= 'f' {
				hexLetter = true
			} else {
				nonHex = true
			}
		case c >= 'A' && c <= 'Z':
			upper = true
			if c <= 'F' {
				hexLetter = true
			} else {
				nonHex = true
			}
		default:
			nonHex = true
		}
	}
	if !nonHex {
		return digit && hexLetter
	}
	return digit && lower && upper
}

// decodePercent decodes runs of percent-escapes that form valid UTF-8; others stay as they are.
func (s *Scrubber) decodePercent(text string) string {
	return s.percentEscapes.ReplaceAllStringFunc(text, func(escaped string) string {
		decoded := make([]byte, 0, len(escaped)/3)
		for i := 0; i+2 < len(escaped); i += 3 {
			v, err := strconv.ParseUint(escaped[i+1:i+3], 16, 8)
			if err != nil {
				return escaped
			}
			decoded = append(decoded, byte(v))
		}
		if !utf8.Valid(decoded) {
			return escaped
		}
		return string(decoded)
	})
}

func (s *Scrubber) toOneLine(text string) string {
	if collapsible(text) {
		text = s.whitespace.ReplaceAllString(text, " ")
	}
	return strings.TrimSpace(text)
}

func firstRunes(text string, n int) string {
	i := 0
	for at := range text {
		if i == n {
			return text[:at]
		}
		i++
	}
	return text
}

func truncate(text string, max int) string {
	if utf8.RuneCountInString(text) <= max {
		return text
	}
	return firstRunes(text, max-1) + "…"
}

// collapsible: whitespace other than a single space (text without it is already one line).
func collapsible(text string) bool {
	for i, r := range text {
		switch r {
		case '\t', '\n', '\v', '\f', '\r', 0x85, 0xA0, 0x2028, 0x2029:
			return true
		case ' ':
			if i+1 < len(text) && text[i+1] == ' ' {
				return true
			}
		}
	}
	return false
}
