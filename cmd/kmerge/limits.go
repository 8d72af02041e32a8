package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/kmerge/kmerge/kpatch/syntax"
	"github.com/kmerge/kmerge/tree"
)

// limits is the --limit flag: KEY=VALUE pairs over the default limits.
type limits struct {
	tree.Limits
	maxLine int
	set     []string
}

func newLimits() *limits {
	return &limits{Limits: tree.DefaultLimits(), maxLine: syntax.DefaultMaxLineBytes}
}

// addFlag adds --limit to a command's flags.
func (l *limits) addFlag(f *pflag.FlagSet) {
	d := tree.DefaultLimits()
	f.Var(l, "limit", fmt.Sprintf("raise or lower a limit on the input: bytes (default %s), documents (%d), depth (%d), nodes (%d), expanded (bytes YAML aliases add, %s), line (of a .kpatch file, %s); e.g. --limit bytes=1Gi (repeatable)",
		size(d.MaxBytes), d.MaxDocuments, d.MaxDepth, d.MaxNodes, size(d.MaxExpanded), size(syntax.DefaultMaxLineBytes)))
}

func size(n int) string {
	switch {
	case n%(1<<30) == 0:
		return fmt.Sprintf("%dGi", n>>30)
	case n%(1<<20) == 0:
		return fmt.Sprintf("%dMi", n>>20)
	case n%(1<<10) == 0:
		return fmt.Sprintf("%dKi", n>>10)
	}
	return strconv.Itoa(n)
}

// String implements pflag.Value.
func (l *limits) String() string { return strings.Join(l.set, ",") }

// Type implements pflag.Value.
func (l *limits) Type() string { return "KEY=VALUE" }

// Set implements pflag.Value: one KEY=VALUE.
func (l *limits) Set(s string) error {
	key, val, ok := strings.Cut(s, "=")
	if !ok {
		return fmt.Errorf("%q: expected KEY=VALUE, e.g. depth=1000", s)
	}
	n, err := parseSize(val)
	if err != nil {
		return fmt.Errorf("%q: %v", s, err)
	}
	switch key {
	case "bytes":
		l.MaxBytes = n
	case "documents":
		l.MaxDocuments = n
	case "depth":
		l.MaxDepth = n // above tree.DeepestNesting: that
	case "nodes":
		l.MaxNodes = n
	case "expanded":
		l.MaxExpanded = n
	case "line":
		l.maxLine = n
	default:
		return fmt.Errorf("%q: the limits are bytes, documents, depth, nodes, expanded and line", s)
	}
	l.set = append(l.set, s)
	return nil
}

// maxLimit is the largest value of a limit: 8Ei (2^63), the largest power
// of two that --limit can spell, which is one more than an int64 holds. It
// is taken as math.MaxInt: no input, and no count of anything in one, can
// reach either.
const maxLimit = 1 << 63

// parseSize reads a positive number with an optional suffix: k, M, G, T, P,
// E (powers of 1000) or Ki, Mi, Gi, Ti, Pi, Ei (powers of 1024). A value
// above maxLimit is refused rather than wrapped around (multiplying by the
// suffix in int64 arithmetic would make 16Ei zero and 8Ei negative).
func parseSize(s string) (int, error) {
	num := s
	var mult uint64 = 1
	for _, u := range []struct {
		suffix string
		mult   uint64
	}{{"Ki", 1 << 10}, {"Mi", 1 << 20}, {"Gi", 1 << 30}, {"Ti", 1 << 40}, {"Pi", 1 << 50}, {"Ei", 1 << 60},
		{"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}, {"P", 1e15}, {"E", 1e18}} {
		if t, ok := strings.CutSuffix(num, u.suffix); ok {
			num, mult = t, u.mult
			break
		}
	}
	digits := num != "" && strings.Trim(num, "0123456789") == ""
	n, err := strconv.ParseUint(num, 10, 64)
	if !digits || (err != nil && !errors.Is(err, strconv.ErrRange)) || err == nil && n == 0 {
		return 0, fmt.Errorf("%q is not a positive number (suffixes: k, M, G, T, P, E, Ki, Mi, Gi, Ti, Pi, Ei)", s)
	}
	if err != nil || n > maxLimit/mult {
		return 0, fmt.Errorf("%q is more than the largest limit, 8Ei (2^63)", s)
	}
	n *= mult
	if n > math.MaxInt {
		return math.MaxInt, nil
	}
	return int(n), nil
}
