package ahpstate

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/ahptui/ahptui/ahpwire"
)

// Session applies a session action to s and returns the new state.
func (r Reducer) Session(s ahpwire.SessionState, a ahpwire.Action) ahpwire.SessionState {
	if isNil(a) {
		return s
	}
	switch a := a.(type) {
	case *ahpwire.SessionReady:
		s.Lifecycle = ahpwire.LifecycleReady
	case *ahpwire.SessionCreationFailed:
		e := a.Error
		s.Lifecycle = ahpwire.LifecycleCreationFailed
		s.CreationError = &e
	case *ahpwire.SessionChatAdded:
		s.Chats = upsert(s.Chats, a.Summary, func(c ahpwire.ChatSummary) bool { return c.Resource == a.Summary.Resource })
	case *ahpwire.SessionChatRemoved:
		if cs, changed := without(s.Chats, func(c ahpwire.ChatSummary) bool { return c.Resource == a.Chat }); changed {
			s.Chats = cs
		}
		if s.DefaultChat == a.Chat {
			s.DefaultChat = ""
		}
	case *ahpwire.SessionChatUpdated:
		for i, c := range s.Chats {
			if c.Resource == a.Chat {
				out := append([]ahpwire.ChatSummary(nil), s.Chats...)
				out[i] = a.Changes.Apply(c)
				s.Chats = out
				break
			}
		}
	case *ahpwire.SessionDefaultChatChanged:
		s.DefaultChat = a.DefaultChat
	case *ahpwire.SessionTitleChanged:
		s.Title = a.Title
	case *ahpwire.SessionActivityChanged:
		s.Activity = a.Activity
	case *ahpwire.SessionIsReadChanged:
		s.Status = s.Status.With(ahpwire.StatusIsRead, a.IsRead)
	case *ahpwire.SessionIsArchivedChanged:
		s.Status = s.Status.With(ahpwire.StatusIsArchived, a.IsArchived)
	case *ahpwire.SessionChangesetsChanged:
		s.Changesets = a.Changesets
	case *ahpwire.SessionServerToolsChanged:
		s.ServerTools = a.Tools
	case *ahpwire.SessionCustomizationsChanged:
		s.Customizations = a.Customizations
	case *ahpwire.SessionActiveClientSet:
		s.ActiveClients = upsert(s.ActiveClients, a.ActiveClient, func(c ahpwire.SessionActiveClient) bool { return c.ClientID == a.ActiveClient.ClientID })
	case *ahpwire.SessionActiveClientRemoved:
		if cs, changed := without(s.ActiveClients, func(c ahpwire.SessionActiveClient) bool { return c.ClientID == a.ClientID }); changed {
			s.ActiveClients = cs
		}
	case *ahpwire.SessionWorkingDirectorySet:
		for _, d := range s.WorkingDirectories {
			if d == a.Directory {
				return s
			}
		}
		s.WorkingDirectories = append(clip(s.WorkingDirectories), a.Directory)
	case *ahpwire.SessionWorkingDirectoryRemoved:
		if ds, changed := without(s.WorkingDirectories, func(d string) bool { return d == a.Directory }); changed {
			s.WorkingDirectories = ds
		}
	case *ahpwire.SessionWorkingDirectoryReplaced:
		s.WorkingDirectories = replaceDirectory(s.WorkingDirectories, a.Directory, a.Replacement)
	case *ahpwire.SessionInputNeededSet:
		s.InputNeeded = upsert(s.InputNeeded, a.Request, func(q ahpwire.SessionInputRequest) bool { return q.ID == a.Request.ID })
		s.Status = inputNeededStatus(s)
	case *ahpwire.SessionInputNeededRemoved:
		if q, changed := without(s.InputNeeded, func(q ahpwire.SessionInputRequest) bool { return q.ID == a.ID }); changed {
			s.InputNeeded = nilIfEmpty(q)
			s.Status = inputNeededStatus(s)
		}
	case *ahpwire.SessionConfigChanged:
		if s.Config != nil {
			c := *s.Config
			c.Values = mergeValues(c.Values, a.Config, a.Replace)
			s.Config = &c
		}
	case *ahpwire.SessionMetaChanged:
		s.Meta = a.Meta
	case *ahpwire.SessionStateReplaced: // full replacement (e.g. a new config schema)
		return a.State
	case *ahpwire.SessionArtifactSet: // 1.1: upsert by id, kept verbatim
		s.Artifacts = upsert(s.Artifacts, a.Artifact, func(x ahpwire.SessionArtifact) bool { return x.ID == a.Artifact.ID })
	case *ahpwire.SessionArtifactRemoved:
		if xs, changed := without(s.Artifacts, func(x ahpwire.SessionArtifact) bool { return x.ID == a.Key() }); changed {
			s.Artifacts = nilIfEmpty(xs)
		}
	case *ahpwire.SessionCustomizationToggled, *ahpwire.SessionCustomizationUpdated,
		*ahpwire.SessionCustomizationRemoved, *ahpwire.SessionMCPServerStateChanged,
		*ahpwire.SessionMCPServerStartRequested, *ahpwire.SessionMCPServerStopRequested:
		return reduceCustomization(s, a)
	}
	return s
}

// replaceDirectory returns a copy of dirs with dir replaced in place by
// repl, keeping one entry of repl: when repl is already listed before dir,
// dir is dropped; later duplicates of repl are removed. dirs is returned
// unchanged when dir is not listed.
func replaceDirectory(dirs []string, dir, repl string) []string {
	i := slices.Index(dirs, dir)
	if i < 0 {
		return dirs
	}
	if j := slices.Index(dirs, repl); j >= 0 && j < i {
		return slices.Delete(slices.Clone(dirs), i, i+1)
	}
	out := make([]string, 0, len(dirs))
	for k, d := range dirs {
		switch {
		case k == i:
			out = append(out, repl)
		case d != repl:
			out = append(out, d)
		}
	}
	return out
}

// inputNeededStatus sets InputNeeded while any entry other than a client
// execution is outstanding, and falls back to InProgress when none is left.
func inputNeededStatus(s ahpwire.SessionState) ahpwire.SessionStatus {
	for _, q := range s.InputNeeded {
		if q.Kind != ahpwire.InputNeededToolClientExecution {
			return s.Status.WithActivity(ahpwire.StatusInputNeeded)
		}
	}
	if s.Status.Activity() == ahpwire.StatusInputNeeded {
		return s.Status.WithActivity(ahpwire.StatusInProgress)
	}
	return s.Status
}

// mergeValues merges (or replaces) config values into a copy.
func mergeValues(cur, upd map[string]json.RawMessage, replace bool) map[string]json.RawMessage {
	if replace {
		return maps.Clone(upd)
	}
	out := maps.Clone(cur)
	if out == nil {
		out = map[string]json.RawMessage{}
	}
	maps.Copy(out, upd)
	return out
}

// Root applies a root action to s and returns the new state.
func (r Reducer) Root(s ahpwire.RootState, a ahpwire.Action) ahpwire.RootState {
	if isNil(a) {
		return s
	}
	switch a := a.(type) {
	case *ahpwire.RootAgentsChanged:
		s.Agents = a.Agents
	case *ahpwire.RootActiveSessionsChanged:
		n := a.ActiveSessions
		s.ActiveSessions = &n
	case *ahpwire.RootTerminalsChanged:
		s.Terminals = a.Terminals
	case *ahpwire.RootConfigChanged:
		if s.Config != nil {
			c := *s.Config
			c.Values = mergeValues(c.Values, a.Config, a.Replace)
			s.Config = &c
		}
	}
	return s
}
