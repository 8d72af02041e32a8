//go:build race

package conflict

// findCases is how many random sets of changes TestFindIndexed compares:
// fewer under the race detector, which makes it ten times slower.
const findCases = 2000
