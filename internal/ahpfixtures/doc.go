// Package ahpfixtures locates and loads the official AHP conformance
// fixtures (testdata/ahp/fixtures: reducers/ and round-trips/) and
// normalises JSON the way the fixture runners compare it. It is shared by
// the fixture tests of ahpwire, ahpstate, ahphost and reducer; it does not
// decide what a test asserts.
package ahpfixtures
