package demo

import (
	"context"
	"fmt"
	"time"

	"github.com/ahptui/ahptui/ahpwire"
)

// run is the state of one Run call: the turn, its clock and counters. It is
// used by one goroutine only.
type run struct {
	ctx      context.Context
	opts     Options
	t        Turn
	cmd      command
	seed     uint64
	start    time.Time
	outBytes int // bytes of text the agent produced, for chat/usage
	parts    int // counter for part ids
	drafts   map[string]map[string]ahpwire.ChatInputAnswer
	steer    steerState
	backlog  []ahpwire.Action // client actions read while polling for steering
	connect  *ConnectInfo     // how the host is reached (/demo url), nil: unknown
}

// newRun prepares a run for turn t.
func newRun(ctx context.Context, o Options, t Turn) *run {
	start := t.StartedAt
	if start.IsZero() {
		start = o.Now()
	}
	return &run{ctx: ctx, opts: o, t: t, cmd: parseCommand(t.Text), seed: promptHash(t.Text), start: start}
}

// script runs the behaviour selected by the prompt.
func (r *run) script() error {
	if r.t.Resume {
		return r.resume()
	}
	switch r.cmd.script {
	case scriptHelp:
		return r.answerOnly(helpText())
	case scriptUnknown:
		return r.answerOnly(unknownText(r.cmd.word))
	case scriptTools:
		return r.tools()
	case scriptBig:
		return r.big()
	case scriptHistory:
		if r.cmd.bad != "" {
			return r.answerOnly(badArgText("history", r.cmd.word, r.cmd.bad))
		}
		return r.answerOnly(historyText(r.cmd.n))
	case scriptSlow:
		return r.slow()
	case scriptFlood:
		return r.flood()
	case scriptStream:
		return r.stream()
	case scriptError:
		return r.failing()
	case scriptInput:
		return r.input()
	case scriptSubagent:
		return r.subagent()
	case scriptAuth:
		return r.auth()
	case scriptTerminal:
		return r.terminal()
	case scriptShell:
		return r.shell()
	case scriptEdit:
		return r.edit()
	case scriptTouch:
		return r.touch()
	case scriptArtifacts:
		return r.artifacts()
	case scriptRepl:
		return r.repl()
	case scriptConfig:
		return r.config()
	case scriptURL:
		return r.answerOnly(urlText(r.connect, r.t.Session))
	case scriptCode:
		return r.answerOnly(codeText()) // code.go
	}
	if ids := ahpwire.ReviewPromptIDs(r.t.Text); len(ids) > 0 {
		return r.review(ids) // review.go
	}
	return r.plain()
}

// emit sends one action unless the turn was cancelled.
func (r *run) emit(a ahpwire.Action) error {
	if err := r.ctx.Err(); err != nil {
		return err
	}
	r.t.Emit(a)
	return nil
}

// pause waits d (nothing when d <= 0) or until the turn is cancelled.
func (r *run) pause(d time.Duration) error {
	if d <= 0 {
		return r.ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-r.ctx.Done():
		return r.ctx.Err()
	}
}

// partID returns a new part id, unique within the turn (resumed runs use a
// different prefix so they never collide with the first run's parts).
func (r *run) partID(kind string) string {
	r.parts++
	if r.t.Resume {
		return fmt.Sprintf("%s.resume.%s%d", r.t.TurnID, kind, r.parts)
	}
	return fmt.Sprintf("%s.%s%d", r.t.TurnID, kind, r.parts)
}

// toolCallID returns the id of the turn's tool call named name.
func (r *run) toolCallID(name string) string {
	return r.t.TurnID + ".tc-" + name
}

// streamMarkdown creates a markdown part and streams text into it in small
// deltas of a few words, pausing Pace between them.
func (r *run) streamMarkdown(text string) error {
	return r.streamPart(ahpwire.PartMarkdown, text, 3)
}

// streamReasoning creates a reasoning part and streams text into it.
func (r *run) streamReasoning(text string) error {
	return r.streamPart(ahpwire.PartReasoning, text, 2)
}

// streamPart creates a part of kind (markdown or reasoning) and streams text.
func (r *run) streamPart(kind, text string, words int) error {
	prefix := "md"
	if kind == ahpwire.PartReasoning {
		prefix = "reasoning"
	}
	id := r.partID(prefix)
	part := ahpwire.MarkdownPart(id, "")
	if kind == ahpwire.PartReasoning {
		part = ahpwire.ReasoningPart(id, "")
	}
	if err := r.emit(&ahpwire.ChatResponsePart{TurnID: r.t.TurnID, Part: part}); err != nil {
		return err
	}
	for _, chunk := range chunkWords(text, words) {
		if err := r.pause(r.opts.Pace); err != nil {
			return err
		}
		r.outBytes += len(chunk)
		var a ahpwire.Action = &ahpwire.ChatDelta{TurnID: r.t.TurnID, PartID: id, Content: chunk}
		if kind == ahpwire.PartReasoning {
			a = &ahpwire.ChatReasoning{TurnID: r.t.TurnID, PartID: id, Content: chunk}
		}
		if err := r.emit(a); err != nil {
			return err
		}
		if steered, err := r.steerPoint(); err != nil {
			return err
		} else if steered {
			if r.steer.stop {
				return nil
			}
			id = r.partID(prefix)
			part.ID = id
			if err := r.emit(&ahpwire.ChatResponsePart{TurnID: r.t.TurnID, Part: part}); err != nil {
				return err
			}
		}
	}
	return nil
}

// usage emits chat/usage with token counts derived from the text sizes.
func (r *run) usage() error {
	in := int64(800 + len(r.t.Text)/4)
	out := int64(r.outBytes/4 + 1)
	return r.emit(&ahpwire.ChatUsage{TurnID: r.t.TurnID, Usage: ahpwire.UsageInfo{
		InputTokens: &in, OutputTokens: &out, Model: r.model(),
	}})
}

// duration is the turn's elapsed time in milliseconds (never negative).
func (r *run) duration() *int64 {
	d := max(r.opts.Now().Sub(r.start).Milliseconds(), 0)
	return &d
}

// complete reports usage and ends the turn normally.
func (r *run) complete() error {
	if err := r.usage(); err != nil {
		return err
	}
	return r.emit(&ahpwire.ChatTurnComplete{TurnID: r.t.TurnID, Duration: r.duration()})
}

// answerOnly streams one markdown answer and completes the turn.
func (r *run) answerOnly(text string) error {
	if err := r.streamMarkdown(text); err != nil {
		return err
	}
	return r.complete()
}

// await returns the next client action accepted by match, skipping others.
func (r *run) await(match func(ahpwire.Action) bool) (ahpwire.Action, error) {
	for len(r.backlog) > 0 {
		a := r.backlog[0]
		r.backlog = r.backlog[1:]
		if a != nil && match(a) {
			return a, nil
		}
	}
	for {
		select {
		case <-r.ctx.Done():
			return nil, r.ctx.Err()
		case a, ok := <-r.t.Client:
			if !ok {
				return nil, ErrClientClosed
			}
			r.noteDraft(a)
			if r.noteSteering(a) {
				continue
			}
			if a != nil && match(a) {
				return a, nil
			}
		}
	}
}

// noteDraft remembers draft answers (chat/inputAnswerChanged) so the input
// script can merge them with the answers of chat/inputCompleted.
func (r *run) noteDraft(a ahpwire.Action) {
	c, ok := a.(*ahpwire.ChatInputAnswerChanged)
	if !ok {
		return
	}
	if r.drafts == nil {
		r.drafts = map[string]map[string]ahpwire.ChatInputAnswer{}
	}
	m := r.drafts[c.RequestID]
	if m == nil {
		m = map[string]ahpwire.ChatInputAnswer{}
		r.drafts[c.RequestID] = m
	}
	if c.Answer == nil {
		delete(m, c.QuestionID)
		return
	}
	m[c.QuestionID] = *c.Answer
}
