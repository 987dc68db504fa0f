package config

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pelletier/go-toml/v2"
)

// Error is one mistake in the configuration file.
type Error struct {
	// File is the configuration file's path.
	File string
	// Line is the 1-based line of the mistake (0 when unknown).
	Line int
	// Key is the dotted key concerned ("" for a syntax error).
	Key string
	// Msg says what is wrong.
	Msg string
}

// Error renders "FILE:LINE: key KEY: MSG".
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d", e.Line)
	}
	b.WriteString(": ")
	if e.Key != "" {
		fmt.Fprintf(&b, "key %s: ", e.Key)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// Errors is every mistake found, in file order.
type Errors []*Error

// Error joins the mistakes, one per line.
func (es Errors) Error() string {
	parts := make([]string, len(es))
	for i, e := range es {
		parts[i] = e.Error()
	}
	return strings.Join(parts, "\n")
}

// decodeErrors turns the TOML library's errors into Errors.
func decodeErrors(path string, doc []byte, err error) Errors {
	var sm *toml.StrictMissingError
	if errors.As(err, &sm) {
		out := make(Errors, 0, len(sm.Errors))
		for i := range sm.Errors {
			e := &sm.Errors[i]
			line, _ := e.Position()
			out = append(out, &Error{File: path, Line: line, Key: strings.Join(e.Key(), "."), Msg: "unknown key"})
		}
		return out
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, _ := de.Position()
		key := strings.Join(de.Key(), ".")
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if key == "" {
			msg = "syntax error: " + msg
		}
		return Errors{{File: path, Line: line, Key: key, Msg: msg}}
	}
	return Errors{{File: path, Line: lineOfKey(doc, nil), Msg: err.Error()}}
}
