package demo

import (
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// plain answers an ordinary message: reasoning, a short intro, a real
// list_files call, then the markdown answer, usage and completion.
func (r *run) plain() error {
	if err := r.streamReasoning(plainReasoning(r.t.Text, r.seed)); err != nil {
		return err
	}
	if r.planMode() {
		return r.answerOnly(planAnswer(r.t.Text, r.model()))
	}
	if err := r.streamMarkdown(plainIntro(r.seed)); err != nil {
		return err
	}
	out, failure, err := r.listFilesTool(".")
	if err != nil {
		return err
	}
	l := newListing(out, failure)
	if err := r.streamMarkdown(plainAnswer(r.t.Text, r.seed, l)); err != nil {
		return err
	}
	return r.complete()
}

// big answers "/demo big N" with exactly N bytes in a few large deltas.
func (r *run) big() error {
	if r.cmd.bad != "" {
		return r.answerOnly(badArgText("big", r.cmd.word, r.cmd.bad))
	}
	text := BigReply(r.cmd.n)
	id := r.partID("md")
	if err := r.emit(&ahpwire.ChatResponsePart{TurnID: r.t.TurnID, Part: ahpwire.MarkdownPart(id, "")}); err != nil {
		return err
	}
	for len(text) > 0 {
		n := min(BigChunk, len(text))
		if err := r.pause(r.opts.Pace); err != nil {
			return err
		}
		if err := r.emit(&ahpwire.ChatDelta{TurnID: r.t.TurnID, PartID: id, Content: text[:n]}); err != nil {
			return err
		}
		r.outBytes += n
		text = text[n:]
	}
	return r.complete()
}

// slow streams a long answer one line at a time, SlowPace apart.
func (r *run) slow() error {
	if r.cmd.bad != "" {
		return r.answerOnly(badArgText("slow", r.cmd.word, r.cmd.bad))
	}
	return r.slowFrom(1)
}

// slowFrom streams "/demo slow"'s lines from line start on (a resumed
// turn continues after the last line it showed: slowResumeLine).
func (r *run) slowFrom(start int) error {
	id := r.partID("md")
	if err := r.emit(&ahpwire.ChatResponsePart{TurnID: r.t.TurnID, Part: ahpwire.MarkdownPart(id, "")}); err != nil {
		return err
	}
	for i := start; i <= r.cmd.n; i++ {
		if err := r.pause(r.opts.SlowPace); err != nil {
			return err
		}
		line := slowLine(i, r.cmd.n)
		r.outBytes += len(line)
		if err := r.emit(&ahpwire.ChatDelta{TurnID: r.t.TurnID, PartID: id, Content: line}); err != nil {
			return err
		}
		steered, err := r.steerPoint()
		if err != nil {
			return err
		}
		if steered && r.steer.stop {
			return r.complete()
		}
		if steered {
			id = r.partID("md")
			if err := r.emit(&ahpwire.ChatResponsePart{TurnID: r.t.TurnID, Part: ahpwire.MarkdownPart(id, "")}); err != nil {
				return err
			}
		}
	}
	if err := r.streamMarkdown(slowDone); err != nil {
		return err
	}
	return r.complete()
}

// failing runs "/demo error": some work, then a resumable chat/error.
func (r *run) failing() error {
	if err := r.streamReasoning("The user wants to see an error. I will start the task, then the simulated upstream call fails in a way that can be retried."); err != nil {
		return err
	}
	if err := r.streamMarkdown("Starting a three-step task.\n\n1. Step one — done.\n2. Step two — calling the upstream service…\n"); err != nil {
		return err
	}
	if err := r.pause(r.opts.Pace * 3); err != nil {
		return err
	}
	if err := r.usage(); err != nil {
		return err
	}
	part := ahpwire.ErrorPart(ahpwire.ErrorInfo{
		ErrorType: "demo.upstreamUnavailable",
		Message:   "Simulated upstream failure (HTTP 503 Service Unavailable). The error is resumable: resume the turn to continue.",
	}, true)
	return r.emit(&ahpwire.ChatError{TurnID: r.t.TurnID, Duration: r.duration(), Part: &part})
}

// resume continues a turn reopened by chat/turnResume.
func (r *run) resume() error {
	if r.cmd.script == scriptSlow && r.cmd.bad == "" && !strings.Contains(r.t.ReplyTail, slowDone) {
		// Interrupted (the host stopped): the answer goes on after the
		// last line the chat shows.
		return r.slowFrom(slowResumeLine(r.t.ReplyTail, r.cmd.n))
	}
	if r.cmd.script != scriptError {
		// Only /demo slow and /demo error go on where they stopped; say
		// so rather than claim the script had finished.
		return r.answerOnly("Resumed, but the demo agent cannot pick this command up where it stopped " +
			"(only `/demo slow` and `/demo error` go on); send it again to run it from the start.\n")
	}
	text := ("Resumed after the error — the upstream service answered this time.\n\n" +
		"3. Step three — done.\n\nAll three steps finished. The error above stays in the transcript, " +
		"and this turn now ends normally.\n")
	return r.answerOnly(text)
}

// slowDone ends "/demo slow"'s answer.
const slowDone = "\nDone — all lines streamed.\n"

// slowResumeLine is the line a resumed "/demo slow" of total lines goes
// on from: the one after the last whole line at the end of tail (1 when
// tail shows none).
func slowResumeLine(tail string, total int) int {
	for i := total; i >= 1; i-- {
		if strings.HasSuffix(tail, slowLine(i, total)) {
			return i + 1
		}
	}
	return 1
}
