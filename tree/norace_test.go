//go:build !race

package tree

// raceEnabled: see race_test.go.
const raceEnabled = false
