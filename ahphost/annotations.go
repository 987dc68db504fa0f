package ahphost

import (
	"github.com/ahptui/ahptui/ahphost/agent"
	"github.com/ahptui/ahptui/ahpstate"
	"github.com/ahptui/ahptui/ahpwire"
)

// A session's annotations (review comments anchored to a turn, a file and
// a range) live on its sessionEntry, in the session's state held by the
// host, and are served as the channel `<session>/annotations`
// (ahpwire.AnnotationsURI). The channel exists exactly as long as its
// session; every change is an annotations/* action on it, and the counts
// reach the root catalogue as SessionSummary.annotations.

// annotationsOf returns the session owning an annotations channel (nil when
// uri is not one or its session does not exist).
func (s *store) annotationsOf(uri string) *sessionEntry {
	session, ok := ahpwire.AnnotationsSession(uri)
	if !ok {
		return nil
	}
	return s.sessions[session]
}

// applyAnnotations reduces and broadcasts an annotations action of session
// se (an accepted client action, or the agent's), then republishes the
// session summary's counts.
func (s *store) applyAnnotations(se *sessionEntry, a ahpwire.Action, origin *ahpwire.ActionOrigin) {
	se.annotations = ahpstate.ReduceAnnotations(se.annotations, a)
	s.emit(ahpwire.AnnotationsURI(se.uri), a, origin, "")
	s.publishSummary(se)
}

// dispatchAnnotations validates a client action on an annotations channel:
// an accepted one is applied, a rejected one echoed with its reason (which
// is returned).
func (s *store) dispatchAnnotations(uri string, a ahpwire.Action, raw []byte, origin *ahpwire.ActionOrigin) string {
	se := s.annotationsOf(uri)
	if se == nil {
		return "unknown channel"
	}
	if err := ahpstate.ValidateAnnotationsAction(se.annotations, a); err != nil {
		s.emitRaw(uri, a, raw, origin, err.Error())
		return err.Error()
	}
	se.annotations = ahpstate.ReduceAnnotations(se.annotations, a)
	s.emitRaw(uri, a, raw, origin, "")
	s.publishSummary(se)
	return ""
}

// annotationsSummary is the catalogue's view of se's annotations channel.
func annotationsSummary(se *sessionEntry) *ahpwire.AnnotationsSummary {
	sum := se.annotations.Summary(ahpwire.AnnotationsURI(se.uri))
	return &sum
}

// sameAnnotations reports whether two catalogue summaries agree.
func sameAnnotations(a, b *ahpwire.AnnotationsSummary) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

var _ agent.Annotator = turnChannels{}

// Annotate applies an annotations action of the agent to the session's
// annotations channel (agent.Annotator); an action the client rules would
// refuse is dropped with a warning.
func (tc turnChannels) Annotate(session string, a ahpwire.Action) {
	if a == nil {
		return
	}
	tc.locked(func(s *store) {
		se := s.sessions[session]
		if se == nil {
			return
		}
		if err := ahpstate.ValidateAnnotationsAction(se.annotations, a); err != nil {
			s.h.log.Warn("agent annotation refused", "session", session, "type", a.ActionType(), "reason", err)
			return
		}
		s.applyAnnotations(se, a, nil)
	})
}
