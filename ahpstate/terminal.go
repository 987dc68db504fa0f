package ahpstate

import "github.com/ahptui/ahptui/ahpwire"

// ReduceTerminal applies a to the state of an `ahp-terminal:` channel.
// Terminal output is appended through shared append-only buffers, so a
// stream of n chunks costs amortised O(len(chunk)) per chunk, and earlier
// states keep their own content. terminal/input is a side effect for the
// host and leaves the state unchanged, as do unknown actions.
func ReduceTerminal(s ahpwire.TerminalState, a ahpwire.Action) ahpwire.TerminalState {
	switch a := a.(type) {
	case *ahpwire.TerminalData:
		return boundTerminal(terminalData(s, a.Data))
	case *ahpwire.TerminalResized:
		s.Cols, s.Rows = ahpwire.Ptr(a.Cols), ahpwire.Ptr(a.Rows)
	case *ahpwire.TerminalClaimed:
		s.Claim = a.Claim
	case *ahpwire.TerminalTitleChanged:
		s.Title = cutUTF8(a.Title, MaxTerminalTitleBytes)
	case *ahpwire.TerminalCwdChanged:
		s.Cwd = a.Cwd
	case *ahpwire.TerminalExited:
		s.ExitCode = a.ExitCode
	case *ahpwire.TerminalCleared:
		s.Content = []ahpwire.TerminalContentPart{}
	case *ahpwire.TerminalCommandDetectionAvailable:
		s.SupportsCommandDetection = ahpwire.Ptr(true)
	case *ahpwire.TerminalCommandExecuted:
		s.Content = append(clip(s.Content), ahpwire.TerminalContentPart{
			Type:        ahpwire.TerminalPartCommand,
			CommandID:   a.CommandID,
			CommandLine: a.CommandLine,
			Timestamp:   a.Timestamp,
		})
		s.SupportsCommandDetection = ahpwire.Ptr(true)
		return boundTerminal(s)
	case *ahpwire.TerminalCommandFinished:
		return commandFinished(s, a)
	}
	return s
}

// terminalData appends data to the running command's output, else to a
// trailing unclassified part, else to a new unclassified part.
func terminalData(s ahpwire.TerminalState, data string) ahpwire.TerminalState {
	n := len(s.Content)
	if n > 0 {
		tail := s.Content[n-1]
		if (tail.Type == ahpwire.TerminalPartCommand && !tail.IsComplete) ||
			tail.Type == ahpwire.TerminalPartUnclassified {
			content := make([]ahpwire.TerminalContentPart, n)
			copy(content, s.Content)
			content[n-1] = tail.AppendText(data)
			s.Content = content
			return s
		}
	}
	s.Content = append(clip(s.Content), ahpwire.TerminalContentPart{Type: ahpwire.TerminalPartUnclassified, Value: data})
	return s
}

// commandFinished completes every command part with the action's id.
func commandFinished(s ahpwire.TerminalState, a *ahpwire.TerminalCommandFinished) ahpwire.TerminalState {
	var content []ahpwire.TerminalContentPart
	for i, p := range s.Content {
		if p.Type != ahpwire.TerminalPartCommand || p.CommandID != a.CommandID {
			continue
		}
		if content == nil {
			content = make([]ahpwire.TerminalContentPart, len(s.Content))
			copy(content, s.Content)
		}
		p.IsComplete = true
		p.ExitCode = a.ExitCode
		p.DurationMs = a.DurationMs
		content[i] = p
	}
	if content != nil {
		s.Content = content
	}
	return s
}
