package resource

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kmerge/kmerge/schema"
	"github.com/kmerge/kmerge/tree"
)

const shop = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: shop-web
  namespace: prod-eu
  labels: {app: web}
  annotations: {team: a}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: shop-cart, namespace: prod-us}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
---
apiVersion: v1
kind: Service
metadata: {name: web}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: app.config}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: appXconfig, namespace: default}
---
apiVersion: serving.knative.dev/v1
kind: Service
metadata: {name: fn}
`

func loadShop(t *testing.T) *Set {
	t.Helper()
	set, err := Parse([]byte(shop), "shop.yaml", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func ids(rs []*Resource) string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID())
	}
	return strings.Join(out, ", ")
}

// TestSelectPatterns: name patterns of headers, kustomize's targets and
// bare names. What kustomize's targets pick was read off kustomize build
// (v5.8.2) on these objects: kind, name, namespace, group and version are
// regular expressions matched whole ("we" does not pick web, "web|x" does
// not pick webby), case-sensitive ("deployment" picks nothing there: kmerge
// also picks by its kind names), version v1 picks apps/v1 too, group ""
// picks every group, namespace default picks objects without one.
func TestSelectPatterns(t *testing.T) {
	set := loadShop(t)
	s := schema.Builtin()
	for _, c := range []struct {
		sel  Selector
		want string
	}{
		// headers: * in a name
		{Selector{Kind: "deployment", Name: "shop-*"}, "apps/v1 Deployment prod-eu/shop-web, apps/v1 Deployment prod-us/shop-cart"},
		{Selector{Kind: "deployment", Name: "*-web"}, "apps/v1 Deployment prod-eu/shop-web"},
		{Selector{Kind: "deployment", Name: "s*p-*t"}, "apps/v1 Deployment prod-us/shop-cart"},
		{Selector{Kind: "deployment", Name: "*web*"}, "apps/v1 Deployment prod-eu/shop-web, apps/v1 Deployment web"},
		{Selector{Kind: "deployment", Name: "shop-*", Labels: "app=web"}, "apps/v1 Deployment prod-eu/shop-web"},
		{Selector{Name: "*", Labels: "app"}, "apps/v1 Deployment prod-eu/shop-web"},
		// kustomize's targets
		{Selector{Regexp: true, Kind: "Deploy.*"}, "apps/v1 Deployment prod-eu/shop-web, apps/v1 Deployment prod-us/shop-cart, apps/v1 Deployment web"},
		{Selector{Regexp: true, Kind: "Deployment", Name: "shop-.*"}, "apps/v1 Deployment prod-eu/shop-web, apps/v1 Deployment prod-us/shop-cart"},
		{Selector{Regexp: true, Name: "we"}, ""},
		{Selector{Regexp: true, Name: "web|x"}, "apps/v1 Deployment web, v1 Service web"},
		{Selector{Regexp: true, Name: "shop-(web|cart)"}, "apps/v1 Deployment prod-eu/shop-web, apps/v1 Deployment prod-us/shop-cart"},
		{Selector{Regexp: true, Name: "app.config"}, "v1 ConfigMap app.config, v1 ConfigMap default/appXconfig"},
		{Selector{Regexp: true, Namespace: "prod-.*"}, "apps/v1 Deployment prod-eu/shop-web, apps/v1 Deployment prod-us/shop-cart"},
		{Selector{Regexp: true, Namespace: "prod"}, ""},
		{Selector{Regexp: true, Namespace: "default", Kind: "ConfigMap"}, "v1 ConfigMap app.config, v1 ConfigMap default/appXconfig"},
		{Selector{Regexp: true, Version: "v1", Kind: "Service"}, "v1 Service web, serving.knative.dev/v1 Service fn"},
		{Selector{Regexp: true, Group: "serving.*", Kind: "Service"}, "serving.knative.dev/v1 Service fn"},
		{Selector{Regexp: true, Group: "apps", Version: "v1"}, "apps/v1 Deployment prod-eu/shop-web, apps/v1 Deployment prod-us/shop-cart, apps/v1 Deployment web"},
		{Selector{Regexp: true, Kind: "Service|ConfigMap", Name: "web|fn"}, "v1 Service web, serving.knative.dev/v1 Service fn"},
		{Selector{Regexp: true, Annotations: "team=a"}, "apps/v1 Deployment prod-eu/shop-web"},
		{Selector{Regexp: true, Kind: "deployment", Name: "web"}, "apps/v1 Deployment web"}, // kmerge's kind names too
		// a bare name
		{Selector{Name: "fn", Bare: true}, "serving.knative.dev/v1 Service fn"},
		// an identity
		{Selector{ID: true, APIVersion: "v1", Kind: "ConfigMap", Name: "app.config", Namespace: "default"}, "v1 ConfigMap app.config"},
		{Selector{ID: true, APIVersion: "v1", Kind: "ConfigMap", Name: "appXconfig"}, "v1 ConfigMap default/appXconfig"},
		{Selector{ID: true, APIVersion: "apps/v1beta1", Kind: "Deployment", Name: "web"}, ""},
		{Selector{ID: true, APIVersion: "apps/v1", Kind: "deployment", Name: "web"}, ""},
	} {
		rs, err := set.Select(c.sel, s)
		if err != nil {
			t.Errorf("%+v: %v", c.sel, err)
			continue
		}
		if got := ids(rs); got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.sel, got, c.want)
		}
	}
	// a kustomize target picks every group a kind name has, as kustomize
	// does; written as text, the kind must be qualified
	if rs, err := set.Select(Selector{Regexp: true, Kind: "Service"}, s); err != nil || len(rs) != 2 {
		t.Errorf("{kind: Service}: %s, %v; want both Services", ids(rs), err)
	}
	if _, err := set.Select(Selector{Kind: "service", Name: "*"}, s); err == nil {
		t.Error("service.*: no error, want the groups to choose from")
	}
	_, err := set.Select(Selector{Name: "web", Bare: true}, s)
	if want := `the target "web" names 2 objects: write kind.name, one of deployment.web, service.web`; err == nil || err.Error() != want {
		t.Errorf("a bare name two objects have: %v\nwant %s", err, want)
	}
	if _, err := set.Select(Selector{Regexp: true, Name: "web-(a"}, s); err == nil || err.Error() != `the name "web-(a" is not a regular expression: missing closing )` {
		t.Errorf("a bad regular expression: %v", err)
	}
}

// TestSelectRenamed: once a patch has changed an object's identity, a
// selector picks it by the name and the namespace it has or had, and by
// the kind it has, as kustomize picks the targets of later patches
// (kustomize build, v5.8.2: after a rename of Deployment web to StatefulSet
// other, {kind: StatefulSet, name: web} picks it, {kind: Deployment, name:
// other} does not); an identity (a patch without a target) picks it by the
// whole identity it has or had (krusty's TestPatchOriginalNameAndKind,
// TestPatchOriginalNameAndNewKind).
func TestSelectRenamed(t *testing.T) {
	set := loadShop(t)
	r := set.Resources[2] // apps/v1 Deployment web
	meta := tree.MapGet(r.Root, "metadata")
	tree.MapSet(meta, "name", tree.NewString("other"))
	tree.MapSet(r.Root, "kind", tree.NewString("StatefulSet"))
	if !r.Reidentify() || r.Reidentify() {
		t.Fatal("Reidentify: want true once, then false")
	}
	if r.ID() != "apps/v1 StatefulSet other" || r.OriginalID() != "apps/v1 Deployment web" {
		t.Fatalf("ID %s, original %s", r.ID(), r.OriginalID())
	}
	s := schema.Builtin()
	for _, c := range []struct {
		sel  Selector
		want bool
	}{
		{Selector{Kind: "statefulset", Name: "other"}, true},
		{Selector{Kind: "statefulset", Name: "web"}, true},
		{Selector{Kind: "deployment", Name: "web"}, false},
		{Selector{Kind: "deployment", Name: "other"}, false},
		{Selector{Regexp: true, Kind: "StatefulSet", Name: "w.b"}, true},
		{Selector{ID: true, APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}, true},
		{Selector{ID: true, APIVersion: "apps/v1", Kind: "StatefulSet", Name: "other"}, true},
		{Selector{ID: true, APIVersion: "apps/v1", Kind: "StatefulSet", Name: "web"}, false},
		{Selector{ID: true, APIVersion: "apps/v1", Kind: "Deployment", Name: "other"}, false},
	} {
		m, err := c.sel.Matcher(s)
		if err != nil {
			t.Fatal(err)
		}
		if got := m.Matches(r); got != c.want {
			t.Errorf("%s picks the renamed object: %v, want %v", c.sel, got, c.want)
		}
	}
}

// TestRemoveDeleted: a deleted object that is a document leaves the
// stream; one that is an item of a List leaves the List, which stays.
func TestRemoveDeleted(t *testing.T) {
	set, err := Parse([]byte(deploy+"---\n"+list+"---\n"+svc), "all.yaml", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	set.Sources[0].Stream.Snapshot()
	for _, r := range set.Resources {
		r.Deleted = r.Kind == "Deployment" || r.Name == "a"
	}
	set.RemoveDeleted()
	if got := ids(set.Resources); got != "v1 ConfigMap b, v1 Service web" {
		t.Errorf("resources left: %s", got)
	}
	var b bytes.Buffer
	if err := set.Sources[0].Stream.WriteYAML(&b); err != nil {
		t.Fatal(err)
	}
	want := "---\napiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b, labels: {legacy: \"true\"}}\n---\n" + svc
	if b.String() != want {
		t.Errorf("written:\n%s\nwant:\n%s", b.String(), want)
	}
}
