package resource

import "github.com/kmerge/kmerge/internal/match"

// LabelSelector is a parsed Kubernetes label selector.
type LabelSelector struct{ sel match.Labels }

// ParseLabelSelector parses a label selector as kubectl -l takes it:
// requirements separated by commas, each one of key=value, key==value,
// key!=value, key in (a,b), key notin (a,b), key (exists), !key (absent).
func ParseLabelSelector(s string) (LabelSelector, error) {
	sel, err := match.ParseLabels(s)
	return LabelSelector{sel}, err
}

// Matches reports whether labels satisfy every requirement of the
// selector (an empty selector matches everything).
func (sel LabelSelector) Matches(labels map[string]string) bool { return sel.sel.Matches(labels) }
