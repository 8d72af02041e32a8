//go:build !race

package conflict

// findCases is how many random sets of changes TestFindIndexed compares.
const findCases = 20000
