package corpus

// PipelineCRD is the CustomResourceDefinition of the Pipeline custom
// resource: its lists are maps keyed by name, three levels deep.
const PipelineCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: pipelines.example.com
spec:
  group: example.com
  names: {kind: Pipeline, plural: pipelines}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          apiVersion: {type: string}
          kind: {type: string}
          metadata: {type: object}
          spec:
            type: object
            properties:
              concurrency: {type: integer}
              stages:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  properties:
                    name: {type: string}
                    timeoutSeconds: {type: integer}
                    steps:
                      type: array
                      x-kubernetes-list-type: map
                      x-kubernetes-list-map-keys: [name]
                      items:
                        type: object
                        properties:
                          name: {type: string}
                          image: {type: string}
                          params:
                            type: array
                            x-kubernetes-list-type: map
                            x-kubernetes-list-map-keys: [name]
                            items:
                              type: object
                              properties:
                                name: {type: string}
                                value: {type: string}
`

// Pipeline is the Go type of the custom resource, with the struct tags
// k8s.io/apimachinery's strategic merge patch reads (the same merge keys as
// the CRD).
type Pipeline struct {
	APIVersion string         `json:"apiVersion,omitempty"`
	Kind       string         `json:"kind,omitempty"`
	Metadata   map[string]any `json:"metadata,omitempty"`
	Spec       PipelineSpec   `json:"spec,omitempty"`
}

// PipelineSpec is the spec of a Pipeline.
type PipelineSpec struct {
	Concurrency int     `json:"concurrency,omitempty"`
	Stages      []Stage `json:"stages,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
}

// Stage is an item of spec.stages.
type Stage struct {
	Name           string `json:"name"`
	TimeoutSeconds int    `json:"timeoutSeconds,omitempty"`
	Steps          []Step `json:"steps,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
}

// Step is an item of a stage's steps.
type Step struct {
	Name   string  `json:"name"`
	Image  string  `json:"image,omitempty"`
	Params []Param `json:"params,omitempty" patchStrategy:"merge" patchMergeKey:"name"`
}

// Param is an item of a step's params.
type Param struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
}
