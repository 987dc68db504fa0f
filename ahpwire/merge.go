package ahpwire

// Helpers for the Apply methods of partial summaries: a nil field of the
// partial means "unchanged"; any other value replaces the field.

// mergeVal stores *v in dst when v is not nil.
func mergeVal[T any](dst *T, v *T) {
	if v != nil {
		*dst = *v
	}
}

// mergePtr stores v in dst when v is not nil.
func mergePtr[T any](dst **T, v *T) {
	if v != nil {
		*dst = v
	}
}

// mergeSlice stores v in dst when v is not nil (an empty, non-nil slice
// clears the field).
func mergeSlice[T any](dst *[]T, v []T) {
	if v != nil {
		*dst = v
	}
}

// mergeMap stores v in dst when v is not nil.
func mergeMap[K comparable, V any](dst *map[K]V, v map[K]V) {
	if v != nil {
		*dst = v
	}
}
