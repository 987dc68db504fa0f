package demo

import (
	"fmt"
	"strings"
)

// fenced wraps code in a fenced block tagged with lang, using a fence longer
// than any backtick run inside the code.
func fenced(lang, code string) string {
	fence := "```"
	for strings.Contains(code, fence) {
		fence += "`"
	}
	return fence + lang + "\n" + code + "\n" + fence + "\n"
}

// plainReasoning is the thinking text streamed before a plain answer.
func plainReasoning(prompt string, seed uint64) string {
	opener := pick(seed, 1, []string{
		"The user wants help with “%s”.",
		"Request: “%s”. Let me think about what is being asked.",
		"So the task is “%s”.",
	})
	return fmt.Sprintf(opener, shortPrompt(prompt, 80)) + " " +
		"Before answering I should look at the working directory, so my suggestion fits the project that is actually there. " +
		"A listing is cheap and read-only, so it needs no confirmation. " +
		pick(seed, 2, []string{
			"Then I will propose a small plan, show one concrete snippet and compare the options in a table.",
			"After that: a short plan, an example in code, and a table that summarises what I found.",
			"Then I can answer with a plan, a code sample and a compact table.",
		}) + " " +
		"Keep it concise; the user can always ask for more detail."
}

// plainIntro is the markdown shown before the list_files call.
func plainIntro(seed uint64) string {
	return pick(seed, 3, []string{
		"Let me take a look at the working directory first.\n\n",
		"I'll start by checking what is in the working directory.\n\n",
		"First, a quick look at the project layout.\n\n",
	})
}

// plainAnswer is the main markdown answer to a plain message, built from the
// prompt and the real list_files result.
func plainAnswer(prompt string, seed uint64, l listing) string {
	var b strings.Builder
	name := identifier(prompt)
	short := shortPrompt(prompt, 160)
	l.entries = visibleFirst(l.entries)
	title := pick(seed, 4, []string{"Here is how I would approach it", "A plan for this", "Suggested approach", "How to tackle it"})
	fmt.Fprintf(&b, "## %s\n\n", title)
	fmt.Fprintf(&b, "You asked:\n\n> %s\n\n", strings.ReplaceAll(short, "\n", " "))
	b.WriteString(listingSummary(l))
	b.WriteString("### Steps\n\n")
	steps := [][]string{
		{"**Reproduce it** — write a failing test that captures the request", "**Pin the behaviour** — add a test that describes the expected result"},
		{"**Make the smallest change** that turns the test green", "**Implement it** in one focused function, " + inlineCode(name)},
		{"**Check the edges**: empty input, errors and cancellation", "**Handle failure paths** explicitly and wrap errors with context"},
		{"**Review and document** the change in a short commit message", "**Run the whole suite** (with `-race`) before sending it for review"},
	}
	for i, s := range steps {
		fmt.Fprintf(&b, "%d. %s\n", i+1, pick(seed, uint64(10+i), s))
	}
	b.WriteString("\n### Example\n\n")
	sample := sampleFor(prompt, seed, l.entries)
	b.WriteString(fenced(sample.lang, sample.body(name, shortPrompt(prompt, 60))))
	b.WriteString("\n")

	if len(l.entries) > 0 {
		b.WriteString("### What I found\n\n| Entry | Kind | Size |\n|---|---|---|\n")
		const shown = 6
		for _, e := range l.entries[:min(shown, len(l.entries))] {
			fmt.Fprintf(&b, "| %s | %s | %s |\n", mdCell(e.name), e.kind, mdCell(e.size))
		}
		if rest := l.total() - min(shown, len(l.entries)); rest > 0 {
			fmt.Fprintf(&b, "\n_…and %s not shown._\n", plural(rest, "more entry", "more entries"))
		}
	} else {
		b.WriteString("### Options\n\n| Option | Effort | Risk |\n|---|---|---|\n" +
			"| Small targeted fix | low | low |\n| Refactor first | medium | medium |\n| Rewrite | high | high |\n")
	}
	b.WriteString("\n" + pick(seed, 6, []string{
		"Want me to go ahead with step 1?",
		"Shall I start with the test?",
		"Tell me if you want the full implementation next.",
	}) + "\n\n")
	b.WriteString("_This is the scripted **ahptui demo agent** — try `/demo help` to see what else it can do._\n")
	return b.String()
}

// helpText lists every script (from Commands, the one catalog).
func helpText() string {
	var b strings.Builder
	b.WriteString("## Demo agent commands\n\n" +
		"Anything that does not start with `/demo` gets a streamed answer with reasoning, a real " +
		"read-only `list_files` call, code, a list and a table.\n\n" +
		"| Command | What it shows |\n|---|---|\n")
	for _, c := range Commands() {
		fmt.Fprintf(&b, "| `%s` | %s |\n", c.Usage, c.Help)
	}
	b.WriteString("| `!ls [path]`, `!cat file` | the read-only demo terminal |\n\n" +
		"While an answer streams, send a steering message and the agent adapts mid-turn (say \"stop\" to end it early).\n\n" +
		"The agent is deterministic: the same prompt always gives the same answer. Edits and commands are simulated; " +
		"only `list_files` and `read_file` really read the working directory.\n")
	return b.String()
}

// unknownText answers an unknown /demo word.
func unknownText(word string) string {
	return fmt.Sprintf("I don't know the demo command %s.\n\n", inlineCode(word)) + helpText()
}

// badArgText answers a /demo command with a bad argument.
func badArgText(cmd, word, why string) string {
	s := fmt.Sprintf("Sorry, I can't run %s", inlineCode("/demo "+cmd))
	if word != "" {
		s += " with " + inlineCode(word)
	}
	return s + ": " + why + ".\n\nSee `/demo help` for usage.\n"
}

// slowLine is line i (1-based) of the /demo slow answer.
func slowLine(i, total int) string {
	if i == 1 {
		return fmt.Sprintf("## A slow answer (%d lines)\n\n", total)
	}
	return fmt.Sprintf("%d. %s — line %d of %d\n", i-1, filler[i%len(filler)], i, total)
}

// visibleFirst orders entries so dot-files come last (the answer shows only
// the first few).
func visibleFirst(es []listEntry) []listEntry {
	out := make([]listEntry, 0, len(es))
	for _, hidden := range []bool{false, true} {
		for _, e := range es {
			if strings.HasPrefix(e.name, ".") == hidden {
				out = append(out, e)
			}
		}
	}
	return out
}

// listingSummary is the sentence of a plain answer about the working
// directory: how many entries of which kinds, and the first few names.
func listingSummary(l listing) string {
	switch {
	case l.err != "":
		return fmt.Sprintf("I could not list the working directory (%s), so this answer stays generic.\n\n", l.err)
	case l.total() == 0:
		return "The working directory is empty, so we can start from a clean slate.\n\n"
	case len(l.entries) == 1 && l.more == 0:
		return fmt.Sprintf("The working directory has a single entry, %s, so I'll keep the change small and local.\n\n", inlineCode(l.entries[0].name))
	}
	const named = 3
	var names []string
	for _, e := range l.entries[:min(named, len(l.entries))] {
		names = append(names, inlineCode(e.name))
	}
	rest := l.total() - len(names)
	var list string
	if rest > 0 {
		list = strings.Join(names, ", ") + " and " + plural(rest, "other", "others")
	} else {
		list = strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	}
	s := fmt.Sprintf("The working directory has **%d** entries", l.total())
	if kinds := kindCounts(l.entries); kinds != "" && l.more == 0 {
		s += " (" + kinds + ")"
	}
	return s + ": " + list + ". I'll keep the change small and local.\n\n"
}

// kindCounts describes how many directories, files and other entries es
// holds ("2 directories, 5 files"); "" when there is only one kind.
func kindCounts(es []listEntry) string {
	var dirs, files, other int
	for _, e := range es {
		switch e.kind {
		case "directory":
			dirs++
		case "file":
			files++
		default:
			other++
		}
	}
	var parts []string
	if dirs > 0 {
		parts = append(parts, plural(dirs, "directory", "directories"))
	}
	if files > 0 {
		parts = append(parts, plural(files, "file", "files"))
	}
	if other > 0 {
		parts = append(parts, plural(other, "other", "others"))
	}
	if len(parts) < 2 {
		return ""
	}
	return strings.Join(parts, ", ")
}

// plural formats n with the singular or plural noun ("1 file", "3 files").
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
