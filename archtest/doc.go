// Package archtest holds no code of its own: its test enforces the one-way
// import rules written down in docs/ARCHITECTURE.md, so they stay true as the
// code grows.
package archtest
