package ahpstate

import "github.com/ahptui/ahptui/ahpwire"

// ReduceChangeset applies a to the state of an `ahp-changeset:` channel.
// Files keep a stable order: fileSet replaces a known id in place and
// appends an unknown one. Errors are carried only with an error status.
// Unknown actions, unknown file ids and unknown operation ids leave the
// state unchanged.
func ReduceChangeset(s ahpwire.ChangesetState, a ahpwire.Action) ahpwire.ChangesetState {
	switch a := a.(type) {
	case *ahpwire.ChangesetStatusChanged:
		s.Status = a.Status
		s.Error = nil
		if a.Status == ahpwire.ChangesetError {
			s.Error = a.Error
		}
	case *ahpwire.ChangesetFileSet:
		s.Files = upsert(s.Files, a.File, func(f ahpwire.ChangesetFile) bool { return f.ID == a.File.ID })
	case *ahpwire.ChangesetFileRemoved:
		i := fileIndex(s.Files, a.FileID)
		if i < 0 {
			return s
		}
		files := make([]ahpwire.ChangesetFile, 0, len(s.Files)-1)
		files = append(append(files, s.Files[:i]...), s.Files[i+1:]...)
		s.Files = files
	case *ahpwire.ChangesetContentChanged:
		s.Files = a.Files
		if a.Operations != nil {
			s.Operations = a.Operations
		}
		s.Error = a.Error
	case *ahpwire.ChangesetOperationsChanged:
		s.Operations = a.Operations
	case *ahpwire.ChangesetOperationStatusChanged:
		return operationStatus(s, a)
	case *ahpwire.ChangesetCleared:
		if len(s.Files) > 0 {
			s.Files = []ahpwire.ChangesetFile{}
		}
	case *ahpwire.ChangesetFilesReviewChanged:
		return filesReviewed(s, a)
	}
	return s
}

func fileIndex(files []ahpwire.ChangesetFile, id string) int {
	for i, f := range files {
		if f.ID == id {
			return i
		}
	}
	return -1
}

// operationStatus sets one operation's status; an error only with the
// error status.
func operationStatus(s ahpwire.ChangesetState, a *ahpwire.ChangesetOperationStatusChanged) ahpwire.ChangesetState {
	for i, op := range s.Operations {
		if op.ID != a.OperationID {
			continue
		}
		ops := make([]ahpwire.ChangesetOperation, len(s.Operations))
		copy(ops, s.Operations)
		op.Status = a.Status
		op.Error = nil
		if a.Status == ahpwire.OperationError {
			op.Error = a.Error
		}
		ops[i] = op
		s.Operations = ops
		return s
	}
	return s
}

// filesReviewed sets the reviewed flag on every listed known file.
func filesReviewed(s ahpwire.ChangesetState, a *ahpwire.ChangesetFilesReviewChanged) ahpwire.ChangesetState {
	want := make(map[string]bool, len(a.Files))
	for _, id := range a.Files {
		want[id] = true
	}
	var files []ahpwire.ChangesetFile
	for i, f := range s.Files {
		if !want[f.ID] {
			continue
		}
		if files == nil {
			files = make([]ahpwire.ChangesetFile, len(s.Files))
			copy(files, s.Files)
		}
		f.Reviewed = ahpwire.Ptr(a.Reviewed)
		files[i] = f
	}
	if files != nil {
		s.Files = files
	}
	return s
}
