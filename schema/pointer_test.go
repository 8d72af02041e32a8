package schema

import (
	"testing"

	"github.com/kmerge/kmerge/internal/nodetest"
)

const pointerService = `
apiVersion: v1
kind: Service
metadata:
  name: dns
  finalizers: [a, "53", 53]
  labels:
    app.kubernetes.io/name: dns
spec:
  ports:
  - {name: dns-tcp, port: 53, protocol: TCP, targetPort: 5353}
  - {name: dns-udp, port: 53, protocol: UDP, targetPort: 5354}
  - {name: "53", port: 0x36, protocol: UDP}
  externalIPs: [10.0.0.1]
`

// TestPathOfPointer: a JSON pointer into an object becomes the path that
// names its items as the schema merges them.
func TestPathOfPointer(t *testing.T) {
	doc := nodetest.ReadDoc(t, pointerService)
	svc := Builtin().Kind("v1", "Service")
	for ptr, want := range map[string]string{
		// ServicePort's merge key (upstream's) is port; finalizers merge by value
		"/spec/ports/1/targetPort":                 "spec.ports[port=53].targetPort",
		"/metadata/finalizers/2":                   "metadata.finalizers[=53]",
		"/metadata/labels/app.kubernetes.io~1name": `metadata.labels."app.kubernetes.io/name"`,
		"/spec/externalIPs/0":                      "spec.externalIPs[0]", // an atomic list: by index
		"/spec/selector/app":                       "spec.selector.app",   // absent members are named all the same
	} {
		p, err := PathOfPointer(doc, svc, ptr)
		if err != nil {
			t.Errorf("PathOfPointer(%s): %v", ptr, err)
			continue
		}
		if p.String() != want {
			t.Errorf("PathOfPointer(%s) = %s, want %s", ptr, p, want)
		}
	}
	for _, bad := range []string{"/spec/ports/3", "/spec/ports/-", "/spec/ports/01"} {
		if p, err := PathOfPointer(doc, svc, bad); err == nil {
			t.Errorf("PathOfPointer(%s) = %s, no error", bad, p)
		}
	}
}
