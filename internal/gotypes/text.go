package gotypes

import (
	"bufio"
	"fmt"
	"io"
	"sort"
	"strings"
)

// The text form holds one definition per block:
//
//	kind apps/v1 Deployment io.k8s.api.apps.v1.Deployment
//	struct io.k8s.api.apps.v1.DeploymentSpec
//		replicas *integer:int32
//		strategy io.k8s.api.apps.v1.DeploymentStrategy patch=retainKeys
//		template io.k8s.api.core.v1.PodTemplateSpec
//
// Type expressions are Go-shaped, because upstream's struct-tag lookup
// depends on the shape: *T (pointer), []T, map[string]T, a struct name, a
// scalar kind with an optional ":format" (string, integer:int32,
// int-or-string:quantity, ...), "any" (interface{}) or "opaque" (a type that
// marshals itself, like RawExtension; "opaque:fieldsV1" for managedFields'
// field sets, which server-side apply types apart). Field attributes: patch= (the
// patchStrategy tag as written), key= (patchMergeKey), rkey=
// (recommendedPatchMergeKey), list= and mapkeys= (server-side apply's list
// type and list map keys), map= (server-side apply's map type of a map
// field: atomic), default= (the default of a list item's key field, as
// JSON). "struct NAME atomic" marks a struct server-side apply treats as
// one value. Lines starting with # are comments.

// APIKind names a Kubernetes kind in the text form.
type APIKind struct {
	APIVersion string
	Kind       string
}

// Names are the other names of a kind: its resource (plural) name and its
// short names, as kubectl accepts them. In the text form they follow the
// struct name on the kind line: "kind apps/v1 Deployment NAME deployments deploy".
type Names struct {
	Plural     string
	ShortNames []string
}

// WriteText writes the kinds (with their names, when names has them) and
// every struct reachable from them, sorted, after header (each line of it as
// a comment).
func WriteText(w io.Writer, header string, kinds map[APIKind]*Type, names map[APIKind]Names) error {
	bw := bufio.NewWriter(w)
	for _, line := range strings.Split(strings.TrimSpace(header), "\n") {
		fmt.Fprintf(bw, "# %s\n", line)
	}
	keys := make([]APIKind, 0, len(kinds))
	for k := range kinds {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].APIVersion != keys[j].APIVersion {
			return keys[i].APIVersion < keys[j].APIVersion
		}
		return keys[i].Kind < keys[j].Kind
	})
	structs := map[string]*Type{}
	var visit func(g *Type) error
	visit = func(g *Type) error {
		switch g.Kind {
		case Ptr, Slice, Map:
			return visit(g.Elem)
		case Struct:
			if g.Name == "" {
				return fmt.Errorf("anonymous struct types cannot be written")
			}
			if prev, ok := structs[g.Name]; ok {
				if prev != g {
					return fmt.Errorf("two Go types are named %s", g.Name)
				}
				return nil
			}
			structs[g.Name] = g
			for _, f := range g.Fields {
				if err := visit(f.Type); err != nil {
					return fmt.Errorf("%s.%s: %w", g.Name, f.Name, err)
				}
			}
		}
		return nil
	}
	for _, k := range keys {
		g := kinds[k]
		for g.Kind == Ptr {
			g = g.Elem
		}
		if g.Kind != Struct {
			return fmt.Errorf("kind %s %s is not a struct", k.APIVersion, k.Kind)
		}
		if err := visit(g); err != nil {
			return err
		}
		fmt.Fprintf(bw, "kind %s %s %s", k.APIVersion, k.Kind, g.Name)
		if n, ok := names[k]; ok && n.Plural != "" {
			fmt.Fprintf(bw, " %s", n.Plural)
			for _, sn := range n.ShortNames {
				fmt.Fprintf(bw, " %s", sn)
			}
		}
		bw.WriteByte('\n')
	}
	structNames := make([]string, 0, len(structs))
	for n := range structs {
		structNames = append(structNames, n)
	}
	sort.Strings(structNames)
	for _, n := range structNames {
		if structs[n].Atomic {
			fmt.Fprintf(bw, "struct %s atomic\n", n)
		} else {
			fmt.Fprintf(bw, "struct %s\n", n)
		}
		for _, f := range structs[n].Fields {
			fmt.Fprintf(bw, "\t%s %s", f.Name, Expr(f.Type))
			for _, a := range [...][2]string{{"patch", f.Strategy}, {"key", f.MergeKey}, {"rkey", f.Recommended}, {"list", f.ListType}, {"mapkeys", f.MapKeys}, {"map", f.MapType}, {"default", f.Default}} {
				if strings.ContainsAny(a[1], " \t\n") {
					return fmt.Errorf("%s.%s: the %s attribute %q holds a blank", n, f.Name, a[0], a[1])
				}
				if a[1] != "" {
					fmt.Fprintf(bw, " %s=%s", a[0], a[1])
				}
			}
			bw.WriteByte('\n')
		}
	}
	return bw.Flush()
}

// Expr returns the type expression of g.
func Expr(g *Type) string {
	switch g.Kind {
	case Ptr:
		return "*" + Expr(g.Elem)
	case Slice:
		return "[]" + Expr(g.Elem)
	case Map:
		return "map[string]" + Expr(g.Elem)
	case Struct:
		return g.Name
	case Interface:
		return "any"
	case Opaque:
		if g.Format != "" {
			return "opaque:" + g.Format
		}
		return "opaque"
	}
	if g.Format != "" && g.Format != g.Scalar {
		return g.Scalar + ":" + g.Format
	}
	return g.Scalar
}

var scalarWords = []string{"string", "integer", "number", "boolean", "int-or-string"}

// ReadText parses the text form. Struct types come back shared by name, so
// recursive definitions give recursive descriptions.
func ReadText(text string) (map[APIKind]*Type, map[APIKind]Names, error) {
	structs := map[string]*Type{}
	type pendingField struct {
		owner *Type
		line  int
		parts []string
	}
	var fields []pendingField
	type pendingKind struct {
		kind  APIKind
		name  string
		names Names
		line  int
	}
	var kindLines []pendingKind
	var current *Type
	for i, line := range strings.Split(text, "\n") {
		ln := i + 1
		line = strings.TrimRight(line, "\r")
		if line == "" || line[0] == '#' {
			continue
		}
		if line[0] == '\t' {
			if current == nil {
				return nil, nil, fmt.Errorf("line %d: field outside a struct", ln)
			}
			parts := strings.Fields(line)
			if len(parts) < 2 {
				return nil, nil, fmt.Errorf("line %d: a field needs a name and a type", ln)
			}
			fields = append(fields, pendingField{owner: current, line: ln, parts: parts})
			continue
		}
		parts := strings.Fields(line)
		switch {
		case parts[0] == "struct" && (len(parts) == 2 || len(parts) == 3 && parts[2] == "atomic"):
			if _, dup := structs[parts[1]]; dup {
				return nil, nil, fmt.Errorf("line %d: struct %s is defined twice", ln, parts[1])
			}
			current = &Type{Kind: Struct, Name: parts[1], Atomic: len(parts) == 3}
			structs[parts[1]] = current
		case parts[0] == "kind" && len(parts) >= 4:
			pk := pendingKind{kind: APIKind{parts[1], parts[2]}, name: parts[3], line: ln}
			if len(parts) > 4 {
				pk.names = Names{Plural: parts[4], ShortNames: parts[5:]}
			}
			kindLines = append(kindLines, pk)
			current = nil
		default:
			return nil, nil, fmt.Errorf("line %d: expected \"struct NAME [atomic]\", \"kind APIVERSION KIND NAME\" or a tab-indented field", ln)
		}
	}
	for _, p := range fields {
		typ, err := parseExpr(p.parts[1], structs)
		if err != nil {
			return nil, nil, fmt.Errorf("line %d: %w", p.line, err)
		}
		f := Field{Name: p.parts[0], Type: typ}
		for _, attr := range p.parts[2:] {
			k, v, ok := strings.Cut(attr, "=")
			if !ok {
				return nil, nil, fmt.Errorf("line %d: attribute %q is not key=value", p.line, attr)
			}
			switch k {
			case "patch":
				f.Strategy = v
			case "key":
				f.MergeKey = v
			case "rkey":
				f.Recommended = v
			case "list":
				f.ListType = v
			case "mapkeys":
				f.MapKeys = v
			case "map":
				f.MapType = v
			case "default":
				f.Default = v
			default:
				return nil, nil, fmt.Errorf("line %d: unknown attribute %q", p.line, k)
			}
		}
		p.owner.Fields = append(p.owner.Fields, f)
	}
	kinds := make(map[APIKind]*Type, len(kindLines))
	names := make(map[APIKind]Names, len(kindLines))
	for _, k := range kindLines {
		g, ok := structs[k.name]
		if !ok {
			return nil, nil, fmt.Errorf("line %d: kind %s names the unknown struct %s", k.line, k.kind.Kind, k.name)
		}
		kinds[k.kind] = g
		if k.names.Plural != "" {
			names[k.kind] = k.names
		}
	}
	return kinds, names, nil
}

func parseExpr(s string, structs map[string]*Type) (*Type, error) {
	switch {
	case strings.HasPrefix(s, "*"):
		e, err := parseExpr(s[1:], structs)
		return &Type{Kind: Ptr, Elem: e}, err
	case strings.HasPrefix(s, "[]"):
		e, err := parseExpr(s[2:], structs)
		return &Type{Kind: Slice, Elem: e}, err
	case strings.HasPrefix(s, "map[string]"):
		e, err := parseExpr(s[len("map[string]"):], structs)
		return &Type{Kind: Map, Elem: e}, err
	case s == "any":
		return &Type{Kind: Interface}, nil
	case s == "opaque":
		return &Type{Kind: Opaque}, nil
	case strings.HasPrefix(s, "opaque:"):
		return &Type{Kind: Opaque, Format: s[len("opaque:"):]}, nil
	}
	if g, ok := structs[s]; ok {
		return g, nil
	}
	word, format, _ := strings.Cut(s, ":")
	for _, w := range scalarWords {
		if w == word {
			return &Type{Kind: Scalar, Scalar: word, Format: format}, nil
		}
	}
	return nil, fmt.Errorf("unknown type %q", s)
}
