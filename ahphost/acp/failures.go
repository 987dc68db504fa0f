package acp

import (
	"strings"
)

// Claude Code's adapter reports its model API's trouble — "Retrying
// Claude, attempt 3 of 10.", a usage limit, a sign-out — only to clients
// that advertise the "sessionFailure" capability of JetBrains' AIR
// extension to ACP (in the client capabilities' _meta): as a
// session_info_update whose _meta carries the failure {severity, title,
// details}. Without it a user saw "working" for minutes with the API down.
// The bridge advertises it and maps the reports: a warning is the running
// turn's activity line (as a retry on another agent's stderr, retry.go)
// until the agent's next output; an error is kept and named by the turn's
// error when the prompt then fails (the adapter leaves the error's own
// detail out for such clients).

// airCapabilities is the client capabilities' _meta the bridge sends.
var airCapabilities = map[string]any{
	"jetbrains": map[string]any{"air": map[string]any{"version": 1, "capabilities": []any{"sessionFailure"}}},
}

// sessionFailure is one AIR session failure report.
type sessionFailure struct {
	severity, title, details string
}

// airFailure reads the session failure of an update's _meta (ok false when
// it carries none).
func airFailure(meta map[string]any) (sessionFailure, bool) {
	jb, _ := meta["jetbrains"].(map[string]any)
	air, _ := jb["air"].(map[string]any)
	f, _ := air["sessionFailure"].(map[string]any)
	if f == nil {
		return sessionFailure{}, false
	}
	sf := sessionFailure{severity: schemaStr(f, "severity"), title: schemaStr(f, "title"), details: schemaStr(f, "details")}
	return sf, sf.title != ""
}

// onFailure keeps an error report for the turn's error and shows any
// report as the running turn's activity line.
func (c *client) onFailure(s *session, tm *turnMap, f sessionFailure) {
	if f.severity == "error" {
		s.mu.Lock()
		s.failure = f
		s.mu.Unlock()
	}
	if tm != nil {
		tm.showActivity(f.title)
	}
}

// takeFailure returns (and forgets) the last error the agent reported for
// the session, as words for the turn's error ("" when none).
func (s *session) takeFailure() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	f := s.failure
	s.failure = sessionFailure{}
	if f.title == "" {
		return ""
	}
	if f.details != "" && !strings.Contains(f.title, f.details) {
		return f.title + " " + f.details
	}
	return f.title
}

// withFailure names the agent's last reported failure in a failed
// prompt's error.
func withFailure(s *session, err error) error {
	if f := s.takeFailure(); f != "" {
		return &failureError{msg: f, err: err}
	}
	return err
}

// failureError is a prompt error with the failure the agent reported.
type failureError struct {
	msg string
	err error
}

func (e *failureError) Error() string { return e.msg + " (" + e.err.Error() + ")" }
func (e *failureError) Unwrap() error { return e.err }
