package demo

import (
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Command prefix and the scripts the agent knows.
const (
	// Prefix starts every scripted command ("/demo tools", ...).
	Prefix = "/demo"
	// MaxBig is the largest reply /demo big produces (32 MiB).
	MaxBig = 32 << 20
	// DefaultSlowLines is how many lines /demo slow streams by default.
	DefaultSlowLines = 200
	// MaxSlowLines caps /demo slow N.
	MaxSlowLines = 100000
)

// script names a behaviour selected from the prompt.
type script int

const (
	scriptPlain script = iota
	scriptHelp
	scriptTools
	scriptBig
	scriptHistory
	scriptSlow
	scriptError
	scriptInput
	scriptSubagent
	scriptAuth
	scriptTerminal
	scriptShell
	scriptEdit
	scriptArtifacts
	scriptRepl
	scriptConfig
	scriptURL
	scriptTouch
	scriptUnknown
)

// command is a parsed prompt.
type command struct {
	script script
	n      int    // byte count for big, line count for slow
	delta  int    // fixed delta size for stream (0: 20–60 bytes)
	word   string // the unknown word, or the bad argument
	bad    string // why an argument was refused (big/slow), shown in the answer
}

// parseCommand classifies a user message. Anything not starting with the
// word "/demo" is a plain message; "/demo" alone is help.
func parseCommand(text string) command {
	if strings.HasPrefix(text, TerminalPrefix) {
		return command{script: scriptTerminal, word: strings.TrimSpace(strings.TrimPrefix(text, TerminalPrefix))}
	}
	fields := strings.Fields(text)
	if len(fields) == 0 || !strings.EqualFold(fields[0], Prefix) {
		return command{script: scriptPlain}
	}
	if len(fields) == 1 {
		return command{script: scriptHelp}
	}
	word := strings.ToLower(fields[1])
	args := fields[2:]
	switch word {
	case "help", "?":
		return command{script: scriptHelp}
	case "tools":
		return command{script: scriptTools}
	case "error":
		return command{script: scriptError}
	case "input":
		return command{script: scriptInput}
	case "subagent":
		return command{script: scriptSubagent}
	case "auth":
		return command{script: scriptAuth}
	case "shell":
		return parseShell(args)
	case "edit":
		return command{script: scriptEdit}
	case "touch":
		return command{script: scriptTouch}
	case "artifacts":
		return parseSwitch(scriptArtifacts, "clear", args)
	case "repl":
		return command{script: scriptRepl}
	case "config":
		return parseSwitch(scriptConfig, "reset", args)
	case "url":
		return command{script: scriptURL}
	case "code":
		return command{script: scriptCode}
	case "big":
		return parseBig(args)
	case "slow":
		return parseSlow(args)
	case "stream":
		return parseStream(args)
	case "flood":
		return parseFlood(args)
	case "history":
		n, ok := HistoryTurns(text)
		if !ok {
			return command{script: scriptHistory, bad: fmt.Sprintf("turn count must be a number from 1 to %d", MaxHistory)}
		}
		return command{script: scriptHistory, n: n}
	}
	return command{script: scriptUnknown, word: fields[1]}
}

// parseBig reads "/demo big N" where N is a byte count with an optional
// suffix k, m (powers of 1024; "kb", "kib", "mb", "mib" too).
// parseSwitch reads "/demo NAME [option]" for a command whose one option
// word is option (n=1 when given), e.g. "/demo artifacts clear".
func parseSwitch(sc script, option string, args []string) command {
	c := command{script: sc}
	if len(args) == 0 {
		return c
	}
	if strings.EqualFold(args[0], option) {
		c.n = 1
		return c
	}
	c.word, c.bad = args[0], "the only option is `"+option+"`"
	return c
}

func parseBig(args []string) command { return parseSizeArg(scriptBig, "big", minBig, args) }

// parseSizeArg reads the reply size of "/demo WORD N" for script sc: at
// least bytes (the reply's last line) and at most MaxBig.
func parseSizeArg(sc script, word string, least int, args []string) command {
	c := command{script: sc}
	if len(args) == 0 {
		c.bad = fmt.Sprintf("missing size: use `/demo %s N` (bytes, e.g. `/demo %s 3m`)", word, word)
		return c
	}
	n, err := ParseSize(args[0])
	switch {
	case err != nil:
		c.word, c.bad = args[0], err.Error()
	case n > MaxBig:
		c.word, c.bad = args[0], fmt.Sprintf("size %d is above the limit of %d bytes (32 MiB)", n, MaxBig)
	case n < least:
		c.word, c.bad = args[0], fmt.Sprintf("size %d is too small: the reply needs at least %d bytes for its last line", n, least)
	default:
		c.n = n
	}
	return c
}

// parseSlow reads "/demo slow [N]".
func parseSlow(args []string) command {
	c := command{script: scriptSlow, n: DefaultSlowLines}
	if len(args) == 0 {
		return c
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 || n > MaxSlowLines {
		c.word, c.bad = args[0], fmt.Sprintf("line count must be a number from 1 to %d", MaxSlowLines)
		c.n = DefaultSlowLines
		return c
	}
	c.n = n
	return c
}

// ParseSize parses a byte count such as "1048576", "64k", "3m", "3MiB" or
// "2kb" (k and m are powers of 1024). It refuses negative, empty and
// overflowing values.
func ParseSize(s string) (int, error) {
	lower := strings.ToLower(strings.TrimSpace(s))
	mult := 1
	for _, suf := range []struct {
		s string
		m int
	}{{"kib", 1 << 10}, {"mib", 1 << 20}, {"kb", 1 << 10}, {"mb", 1 << 20}, {"k", 1 << 10}, {"m", 1 << 20}, {"b", 1}} {
		if strings.HasSuffix(lower, suf.s) {
			lower, mult = strings.TrimSuffix(lower, suf.s), suf.m
			break
		}
	}
	n, err := strconv.ParseInt(lower, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("size %q is not a byte count (try 1048576, 64k or 3m)", s)
	}
	if n > int64(MaxBig) {
		return 0, fmt.Errorf("size %q is above the limit of %d bytes (32 MiB)", s, MaxBig)
	}
	return int(n) * mult, nil
}

// promptHash is the deterministic seed for every choice the agent makes.
func promptHash(text string) uint64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(text))
	return h.Sum64()
}

// pick returns one of options chosen by seed and salt.
func pick[T any](seed uint64, salt uint64, options []T) T {
	x := seed ^ (salt * 0x9E3779B97F4A7C15)
	x ^= x >> 31
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 29
	return options[x%uint64(len(options))]
}
