package rules

import (
	"fmt"
	"regexp"
	"regexp/syntax"
	"strings"
)

// Matcher is a compiled pattern with a literal pre-filter: every match of the pattern contains
// one of its literals (compared without regard to ASCII case), so a text with none of them is
// answered without running the regular expression. Go's regexp costs about 80 ns a character on
// these patterns, and most texts the processor sees (error messages) match none of them.
type Matcher struct {
	*regexp.Regexp
	literals []string // lower case; nil when the pattern has no required literal
	// byFirst lists the literals by their first byte, so a text is scanned once.
	byFirst [256][]string
}

// CompileMatcher compiles the pattern and derives its pre-filter.
func (p Pattern) CompileMatcher() (*Matcher, error) {
	re, err := p.Compile()
	if err != nil {
		return nil, err
	}
	flags := syntax.Perl
	if p.IgnoreCase {
		flags |= syntax.FoldCase
	}
	m := &Matcher{Regexp: re}
	if tree, err := syntax.Parse(p.Pattern, flags); err == nil {
		m.literals = requiredLiterals(tree.Simplify())
	}
	for _, literal := range m.literals {
		m.byFirst[literal[0]] = append(m.byFirst[literal[0]], literal[1:])
	}
	return m, nil
}

// MayMatch reports whether text holds one of the required literals (true when there are none).
func (m *Matcher) MayMatch(text string) bool {
	if m.literals == nil {
		return true
	}
	for i := 0; i < len(text); i++ {
		for _, rest := range m.byFirst[lower(text[i])] {
			if hasPrefixFold(text[i+1:], rest) {
				return true
			}
		}
	}
	return false
}

func lower(c byte) byte {
	if c >= 'A' && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// hasPrefixFold reports whether text starts with prefix (lower-case ASCII), ignoring ASCII case.
func hasPrefixFold(text, prefix string) bool {
	if len(text) < len(prefix) {
		return false
	}
	for j := 0; j < len(prefix); j++ {
		if lower(text[j]) != prefix[j] {
			return false
		}
	}
	return true
}

// maxLiterals bounds the sets below: past it a pattern runs without a pre-filter.
const maxLiterals = 64

// exactStrings returns the finite set of texts (lower case) the pattern matches, or nil.
func exactStrings(re *syntax.Regexp) []string {
	switch re.Op {
	case syntax.OpLiteral:
		literal := string(re.Rune)
		for i := 0; i < len(literal); i++ {
			if literal[i] >= 0x80 {
				return nil
			}
		}
		return []string{strings.ToLower(literal)}
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText, syntax.OpEndText,
		syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return []string{""}
	case syntax.OpCharClass:
		var out []string
		for i := 0; i+1 < len(re.Rune); i += 2 {
			if re.Rune[i+1] >= 0x80 || re.Rune[i+1]-re.Rune[i] > 16 {
				return nil
			}
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				out = append(out, strings.ToLower(string(r)))
			}
		}
		return dedupe(out)
	case syntax.OpCapture:
		return exactStrings(re.Sub[0])
	case syntax.OpQuest:
		if sub := exactStrings(re.Sub[0]); sub != nil {
			return dedupe(append(sub, ""))
		}
	case syntax.OpAlternate:
		var out []string
		for _, sub := range re.Sub {
			e := exactStrings(sub)
			if e == nil {
				return nil
			}
			out = append(out, e...)
		}
		return dedupe(out)
	case syntax.OpConcat:
		out := []string{""}
		for _, sub := range re.Sub {
			if out = product(out, exactStrings(sub)); out == nil {
				return nil
			}
		}
		return out
	}
	return nil
}

func product(a, b []string) []string {
	if a == nil || b == nil || len(a)*len(b) > maxLiterals {
		return nil
	}
	out := make([]string, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			out = append(out, x+y)
		}
	}
	return dedupe(out)
}

func dedupe(values []string) []string {
	if len(values) > maxLiterals {
		return nil
	}
	seen := map[string]bool{}
	out := values[:0]
	for _, v := range values {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}

// shortest is the length of the shortest literal: how well a set filters (0: not at all).
func shortest(literals []string) int {
	if literals == nil {
		return 0
	}
	n := len(literals[0])
	for _, l := range literals {
		n = min(n, len(l))
	}
	return n
}

// requiredLiterals returns literals one of which every match contains, or nil when unknown.
func requiredLiterals(re *syntax.Regexp) []string {
	if e := exactStrings(re); shortest(e) > 0 {
		return e
	}
	switch re.Op {
	case syntax.OpCapture, syntax.OpPlus:
		return requiredLiterals(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return requiredLiterals(re.Sub[0])
		}
	case syntax.OpConcat:
		// Runs of children with exact texts are joined (`g` then `h[opusr]_` is `ghp_`, `gho_`, ...);
		// the candidate whose shortest literal is longest filters best.
		var best []string
		consider := func(candidate []string) {
			if shortest(candidate) > shortest(best) {
				best = candidate
			}
		}
		run := []string{""}
		for _, sub := range re.Sub {
			if e := exactStrings(sub); e != nil {
				if joined := product(run, e); joined != nil {
					run = joined
					continue
				}
				consider(run)
				run = e
				continue
			}
			consider(run)
			run = []string{""}
			consider(requiredLiterals(sub))
		}
		consider(run)
		return best
	case syntax.OpAlternate:
		var all []string
		for _, sub := range re.Sub {
			literals := requiredLiterals(sub)
			if shortest(literals) == 0 {
				return nil
			}
			all = append(all, literals...)
		}
		return all
	}
	return nil
}

// MatchString is regexp's, after the pre-filter.
func (m *Matcher) MatchString(text string) bool {
	return m.MayMatch(text) && m.Regexp.MatchString(text)
}

// FindStringSubmatch is regexp's, after the pre-filter.
func (m *Matcher) FindStringSubmatch(text string) []string {
	if !m.MayMatch(text) {
		return nil
	}
	return m.Regexp.FindStringSubmatch(text)
}

// FindAllStringSubmatchIndex is regexp's, after the pre-filter.
func (m *Matcher) FindAllStringSubmatchIndex(text string, n int) [][]int {
	if !m.MayMatch(text) {
		return nil
	}
	return m.Regexp.FindAllStringSubmatchIndex(text, n)
}

// MatcherSet runs the pre-filters of several matchers in one scan of a text.
type MatcherSet struct {
	byFirst [256][]setLiteral
	always  uint64 // matchers without a pre-filter
	all     uint64
}

type setLiteral struct {
	rest     string // the literal after its first byte
	matchers uint64 // the matchers that have it
}

// NewMatcherSet indexes the matchers' literals; at most 64 matchers.
func NewMatcherSet(matchers []*Matcher) (*MatcherSet, error) {
	if len(matchers) > 64 {
		return nil, fmt.Errorf("at most 64 matchers in a set, got %d", len(matchers))
	}
	s := &MatcherSet{}
	for i, m := range matchers {
		bit := uint64(1) << uint(i)
		s.all |= bit
		if m.literals == nil {
			s.always |= bit
			continue
		}
	literals:
		for _, literal := range m.literals {
			entries := s.byFirst[literal[0]]
			for j := range entries {
				if entries[j].rest == literal[1:] {
					entries[j].matchers |= bit
					continue literals
				}
			}
			s.byFirst[literal[0]] = append(entries, setLiteral{literal[1:], bit})
		}
	}
	return s, nil
}

// MayMatch returns a bit for each matcher (by its index) whose pre-filter lets text through:
// what each matcher's own MayMatch answers, in one scan.
func (s *MatcherSet) MayMatch(text string) uint64 {
	found := s.always
	for i := 0; i < len(text) && found != s.all; i++ {
		for _, l := range s.byFirst[lower(text[i])] {
			if found&l.matchers != l.matchers && hasPrefixFold(text[i+1:], l.rest) {
				found |= l.matchers
			}
		}
	}
	return found
}
