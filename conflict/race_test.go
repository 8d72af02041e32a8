//go:build race

package conflict_test

// raceEnabled is set when the tests run under the race detector, which
// makes them ten times slower: the property test then runs fewer pairs.
const raceEnabled = true
