// Package testkit holds the helpers every package's tests share: a
// goroutine-leak check, a buffer safe for concurrent writers, and golden
// files with one -update flag and one layout (testdata/golden/<name>.golden
// next to the test). Only _test.go files import it.
package testkit
