// Package testkit holds the helpers every package's tests share: a
// goroutine-leak check, a buffer safe for concurrent writers, golden files
// with one -update flag and one layout (testdata/golden/<name>.golden next
// to the test), encoding/json oracles for the JSON-RPC envelope rules, and
// the timing loop of the reassembly benchmarks. Only _test.go files import
// it.
package testkit
