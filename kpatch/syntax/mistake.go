package syntax

import (
	"fmt"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kmerge/kmerge/internal/suggest"
	"github.com/kmerge/kmerge/tree"
)

// Files that are not what their names say: a patch file's format comes
// from its name, so a file in the other format, or a file that is not a
// patch file at all, fails to parse with a message about its syntax. These
// functions turn such messages into one that says what the file is.

// misnamed returns, for the error err of reading data as a YAML patch
// list, an error saying that data is .kpatch text when it parses as such;
// else err.
func misnamed(data []byte, file string, err error) error {
	ps, kerr := parseKpatch(data, tree.Position{File: file, Line: 1, Column: 1}, DefaultMaxLineBytes, tree.DefaultLimits().MaxDepth)
	if kerr != nil || len(ps) == 0 {
		return err
	}
	base := filepath.Base(file)
	return &Error{Pos: ps[0].Pos,
		Msg: fmt.Sprintf("this is .kpatch text, but a file named %s is read as a YAML patch list: name it %s.kpatch (a patch file's format comes from its name: .kpatch for sections of assignments; .yaml, .yml or .json for a list of {target, type, patch})",
			base, strings.TrimSuffix(base, filepath.Ext(base)))}
}

// notAList is the error for the root of a patch list that is not a list:
// one patch without its dash, or a mapping of values (a values file among
// the patch files).
func notAList(file string, root *yaml.Node) error {
	const want = "a patch list is a YAML list of {target, type, patch}"
	if root.Kind != yaml.MappingNode {
		return nodeErr(file, root, "%s; this is %s", want, tree.Describe(root))
	}
	var keys []string
	for i := 0; i+1 < len(root.Content); i += 2 {
		keys = append(keys, root.Content[i].Value)
	}
	for _, k := range keys {
		if k == "target" || k == "patch" {
			return nodeErr(file, root, "%s; this is one patch, not a list: write it as a list item, with \"- \" before target", want)
		}
	}
	shown := keys
	if len(shown) > 3 {
		shown = append(shown[:3:3], "...")
	}
	return &Error{Pos: nodePos(file, root), ValuesFile: true,
		Msg: fmt.Sprintf("%s; this is a mapping (%s), as a values file is", want, strings.Join(shown, ", "))}
}

// unknownPatchKey is the error for a key of a patch list item that is not
// target, type or patch.
func unknownPatchKey(file string, k *yaml.Node) error {
	msg := fmt.Sprintf("unknown key %q in a patch: the keys are target, type, patch and options", k.Value)
	if s := suggest.DidYouMean(k.Value, []string{"target", "type", "patch", "options"}, nil); s != "" {
		msg += " (" + s + ")"
	}
	return &Error{Pos: tree.Position{File: file, Line: k.Line, Column: k.Column}, Msg: msg}
}
