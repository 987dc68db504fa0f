package segment

import (
	"github.com/ahptui/ahptui/internal/jsonscan"
)

// IsSegment reports whether frame is a JSON object whose first top-level
// "method" member is the string "ahp/messageSegment" (escaped spellings
// included). It does not validate the frame (Reassembler.Feed does) and
// costs O(1) when "method" comes before any large member, as in frames
// written by Splitter.
func IsSegment(frame []byte) bool {
	is := false
	jsonscan.Object(frame, func(key []byte, i int) (int, bool) {
		if string(key) == "method" {
			_, is, _ = jsonscan.StringIs(frame, i, Method)
			return i, false // the first "method" decides
		}
		return jsonscan.SkipStructural(frame, i)
	})
	return is
}
