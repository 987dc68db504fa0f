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
	b := frame
	i := jsonscan.SkipWS(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = jsonscan.SkipWS(b, i+1)
	for i < len(b) && b[i] == '"' {
		ke, kesc, ok := jsonscan.ScanString(b, i)
		if !ok {
			return false
		}
		isMethod := jsonscan.BodyIs(b[i+1:ke-1], kesc, "method")
		i = jsonscan.SkipWS(b, ke)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = jsonscan.SkipWS(b, i+1)
		if isMethod {
			_, is, ok := jsonscan.StringIs(b, i, Method)
			return ok && is
		}
		if i, ok = jsonscan.SkipStructural(b, i); !ok {
			return false
		}
		i = jsonscan.SkipWS(b, i)
		if i >= len(b) || b[i] != ',' {
			return false
		}
		i = jsonscan.SkipWS(b, i+1)
	}
	return false
}
