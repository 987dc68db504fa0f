package ahpstate

import (
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// Bounds on a client-dispatched annotations action (ValidateAnnotationsAction):
// a session's channel holds at most MaxAnnotations threads of at most
// MaxAnnotationEntries entries, each entry's text at most
// MaxAnnotationTextBytes, ids and resource URIs at most MaxAnnotationIDBytes.
const (
	MaxAnnotations         = 500
	MaxAnnotationEntries   = 200
	MaxAnnotationTextBytes = 64 << 10
	MaxAnnotationIDBytes   = 1024
)

// ReduceAnnotations applies a to the state of an annotations channel
// (upstream annotationsReducer): set upserts a whole annotation by id,
// updated merges the present members into a known one, removed drops it;
// entrySet upserts an entry by id (appended when new), entryRemoved drops
// one. Unknown annotation or entry ids and unknown actions leave the state
// unchanged. s is not modified.
func ReduceAnnotations(s ahpwire.AnnotationsState, a ahpwire.Action) ahpwire.AnnotationsState {
	switch a := a.(type) {
	case *ahpwire.AnnotationsSet:
		s.Annotations = upsert(s.Annotations, a.Annotation, func(x ahpwire.Annotation) bool { return x.ID == a.Annotation.ID })
	case *ahpwire.AnnotationsRemoved:
		i := annotationIndex(s.Annotations, a.AnnotationID)
		if i < 0 {
			return s
		}
		out := make([]ahpwire.Annotation, 0, len(s.Annotations)-1)
		s.Annotations = append(append(out, s.Annotations[:i]...), s.Annotations[i+1:]...)
	case *ahpwire.AnnotationsUpdated:
		return withAnnotation(s, a.AnnotationID, func(x ahpwire.Annotation) (ahpwire.Annotation, bool) {
			if a.TurnID != nil {
				x.TurnID = *a.TurnID
			}
			if a.Origin != nil {
				x.Origin = a.Origin
			}
			if a.Resource != nil {
				x.Resource = *a.Resource
			}
			if a.Range != nil {
				x.Range = a.Range
			}
			if a.Resolved != nil {
				x.Resolved = *a.Resolved
			}
			return x, true
		})
	case *ahpwire.AnnotationsEntrySet:
		return withAnnotation(s, a.AnnotationID, func(x ahpwire.Annotation) (ahpwire.Annotation, bool) {
			x.Entries = upsert(x.Entries, a.Entry, func(e ahpwire.AnnotationEntry) bool { return e.ID == a.Entry.ID })
			return x, true
		})
	case *ahpwire.AnnotationsEntryRemoved:
		return withAnnotation(s, a.AnnotationID, func(x ahpwire.Annotation) (ahpwire.Annotation, bool) {
			j := -1
			for k, e := range x.Entries {
				if e.ID == a.EntryID {
					j = k
					break
				}
			}
			if j < 0 {
				return x, false
			}
			out := make([]ahpwire.AnnotationEntry, 0, len(x.Entries)-1)
			x.Entries = append(append(out, x.Entries[:j]...), x.Entries[j+1:]...)
			return x, true
		})
	}
	return s
}

// withAnnotation replaces the annotation id with f's result (s unchanged
// when id is unknown or f reports no change).
func withAnnotation(s ahpwire.AnnotationsState, id string, f func(ahpwire.Annotation) (ahpwire.Annotation, bool)) ahpwire.AnnotationsState {
	i := annotationIndex(s.Annotations, id)
	if i < 0 {
		return s
	}
	x, changed := f(s.Annotations[i])
	if !changed {
		return s
	}
	out := append([]ahpwire.Annotation(nil), s.Annotations...)
	out[i] = x
	s.Annotations = out
	return s
}

func annotationIndex(list []ahpwire.Annotation, id string) int {
	for i := range list {
		if list[i].ID == id {
			return i
		}
	}
	return -1
}

// ReduceResourceWatch applies a to the state of a resource-watch channel.
// resourceWatch/changed delivers events and keeps no history, so every
// action leaves the state (what is watched) unchanged.
func ReduceResourceWatch(s ahpwire.ResourceWatchState, _ ahpwire.Action) ahpwire.ResourceWatchState {
	return s
}

// ValidateAnnotationsAction returns why a client may not dispatch a on an
// annotations channel in state s (nil = accepted): it must be one of the
// five annotations actions, name ids, stay within the bounds above, and
// entrySet/entryRemoved/updated/removed must name a known annotation.
func ValidateAnnotationsAction(s ahpwire.AnnotationsState, a ahpwire.Action) error {
	if err := checkDispatchable(a.ActionType(), "annotations"); err != nil {
		return err
	}
	switch a := a.(type) {
	case *ahpwire.AnnotationsSet:
		x := a.Annotation
		if err := checkIDs(x.ID, x.Resource); err != nil {
			return err
		}
		if annotationIndex(s.Annotations, x.ID) < 0 && len(s.Annotations) >= MaxAnnotations {
			return reject("too many annotations in this session (max %d)", MaxAnnotations)
		}
		if len(x.Entries) > MaxAnnotationEntries {
			return reject("too many entries in one annotation (max %d)", MaxAnnotationEntries)
		}
		for _, e := range x.Entries {
			if err := checkEntry(e); err != nil {
				return err
			}
		}
		return checkRange(x.Range)
	case *ahpwire.AnnotationsUpdated:
		if annotationIndex(s.Annotations, a.AnnotationID) < 0 {
			return reject("no annotation %q", a.AnnotationID)
		}
		if a.Resource != nil {
			if err := checkIDs("x", *a.Resource); err != nil {
				return err
			}
		}
		return checkRange(a.Range)
	case *ahpwire.AnnotationsRemoved:
		if annotationIndex(s.Annotations, a.AnnotationID) < 0 {
			return reject("no annotation %q", a.AnnotationID)
		}
	case *ahpwire.AnnotationsEntrySet:
		i := annotationIndex(s.Annotations, a.AnnotationID)
		if i < 0 {
			return reject("no annotation %q", a.AnnotationID)
		}
		known := false
		for _, e := range s.Annotations[i].Entries {
			known = known || e.ID == a.Entry.ID
		}
		if !known && len(s.Annotations[i].Entries) >= MaxAnnotationEntries {
			return reject("too many entries in one annotation (max %d)", MaxAnnotationEntries)
		}
		return checkEntry(a.Entry)
	case *ahpwire.AnnotationsEntryRemoved:
		if annotationIndex(s.Annotations, a.AnnotationID) < 0 {
			return reject("no annotation %q", a.AnnotationID)
		}
	}
	return nil
}

func checkIDs(id, resource string) error {
	switch {
	case strings.TrimSpace(id) == "":
		return reject("annotation id is empty")
	case len(id) > MaxAnnotationIDBytes:
		return reject("annotation id longer than %d bytes", MaxAnnotationIDBytes)
	case strings.TrimSpace(resource) == "":
		return reject("annotation resource is empty")
	case len(resource) > MaxAnnotationIDBytes:
		return reject("annotation resource longer than %d bytes", MaxAnnotationIDBytes)
	}
	return nil
}

func checkEntry(e ahpwire.AnnotationEntry) error {
	switch {
	case strings.TrimSpace(e.ID) == "":
		return reject("annotation entry id is empty")
	case len(e.ID) > MaxAnnotationIDBytes:
		return reject("annotation entry id longer than %d bytes", MaxAnnotationIDBytes)
	case len(e.Text.Text) > MaxAnnotationTextBytes:
		return reject("annotation entry text longer than %d bytes", MaxAnnotationTextBytes)
	}
	return nil
}

func checkRange(r *ahpwire.TextRange) error {
	if r == nil {
		return nil
	}
	if r.Start.Line < 0 || r.Start.Character < 0 || r.End.Line < 0 || r.End.Character < 0 ||
		r.End.Line < r.Start.Line || (r.End.Line == r.Start.Line && r.End.Character < r.Start.Character) {
		return reject("annotation range is invalid")
	}
	return nil
}
