package segment

import (
	"errors"
	"fmt"
)

// ErrMessageTooLarge is matched (via errors.Is) by [*NotNegotiatedError] and
// [*MessageTooLargeError]: both map to JSON-RPC error [CodeMessageTooLarge].
var ErrMessageTooLarge = errors.New("message too large")

// ErrViolation is matched (via errors.Is) by every [*ViolationError].
var ErrViolation = errors.New(CloseReason)

// NotNegotiatedError reports a message larger than the frame ceiling toward a
// receiver that did not advertise chunking. Per the RFC's fail-closed rules
// the caller fails a request locally, answers a response with -32050, or drops
// a notification and logs.
type NotNegotiatedError struct {
	// Size is the message size in bytes.
	Size int64
	// Limit is the frame ceiling it exceeded.
	Limit int64
}

// Error implements error.
func (e *NotNegotiatedError) Error() string {
	return fmt.Sprintf("segment: message of %d bytes exceeds frame limit %d and the receiver did not advertise chunking", e.Size, e.Limit)
}

// Is makes errors.Is(err, ErrMessageTooLarge) true.
func (e *NotNegotiatedError) Is(target error) bool { return target == ErrMessageTooLarge }

// Data returns the JSON-RPC error data {size, limit}.
func (e *NotNegotiatedError) Data() map[string]int64 {
	return map[string]int64{"size": e.Size, "limit": e.Limit}
}

// MessageTooLargeError reports a message larger than the receiver's
// maxIncomingMessageBytes.
type MessageTooLargeError struct {
	// Size is the message size in bytes.
	Size int64
	// Limit is the receiver's maxIncomingMessageBytes.
	Limit int64
}

// Error implements error.
func (e *MessageTooLargeError) Error() string {
	return fmt.Sprintf("segment: message of %d bytes exceeds maxIncomingMessageBytes %d", e.Size, e.Limit)
}

// Is makes errors.Is(err, ErrMessageTooLarge) true.
func (e *MessageTooLargeError) Is(target error) bool { return target == ErrMessageTooLarge }

// Data returns the JSON-RPC error data {size, limit}.
func (e *MessageTooLargeError) Data() map[string]int64 {
	return map[string]int64{"size": e.Size, "limit": e.Limit}
}

// TooManySegmentsError reports that splitting would need total ≥ 2^16
// segments.
type TooManySegmentsError struct {
	// Total is the number of segments that would have been needed.
	Total int64
}

// Error implements error.
func (e *TooManySegmentsError) Error() string {
	return fmt.Sprintf("segment: message needs %d segments, the limit is %d", e.Total, MaxTotal-1)
}

// FrameLimitError reports that the frame limit is too small to carry even one
// byte of payload in an ahp/messageSegment frame.
type FrameLimitError struct {
	// Limit is the effective frame limit.
	Limit int64
	// Overhead is the envelope size of a segment frame with empty data.
	Overhead int64
}

// Error implements error.
func (e *FrameLimitError) Error() string {
	return fmt.Sprintf("segment: frame limit %d cannot fit a segment (envelope alone is %d bytes)", e.Limit, e.Overhead)
}

// Rule identifies one row of the RFC's validation table (plus the envelope
// shape checks this implementation needs before it can apply them).
type Rule int

// The validation rules. Each violation closes the transport with CloseCode.
const (
	// RuleEnvelope: the frame claims method ahp/messageSegment but is not a
	// well-formed JSON-RPC 2.0 notification with an object params.
	RuleEnvelope Rule = iota + 1
	// RuleGroupID: groupId is missing, empty, not a string, or > 128 bytes.
	RuleGroupID
	// RuleIndex: index is missing or not a non-negative integer < 2^31.
	RuleIndex
	// RuleIndexNotBelowTotal: index >= total.
	RuleIndexNotBelowTotal
	// RuleIndexOrder: index !== nextIndex for an existing group (or a new
	// group that does not start at 0).
	RuleIndexOrder
	// RuleTotal: total is missing, not an integer, < 1 or >= 2^16.
	RuleTotal
	// RuleTotalChanged: total changes mid-group.
	RuleTotalChanged
	// RuleData: data is missing or not a base64-encoded string.
	RuleData
	// RuleSegmentTooLarge: the decoded segment exceeds maxIncomingFrameBytes.
	RuleSegmentTooLarge
	// RuleMessageTooLarge: accumulated bytes exceed maxIncomingMessageBytes.
	RuleMessageTooLarge
	// RuleTooManyGroups: active groups would exceed maxIncomingGroups.
	RuleTooManyGroups
	// RuleInvalidUTF8: the reassembled bytes are not valid UTF-8.
	RuleInvalidUTF8
	// RuleInvalidJSONRPC: the reassembled bytes are not exactly one JSON-RPC
	// 2.0 request, response or notification.
	RuleInvalidJSONRPC
	// RuleNestedSegment: the reassembled message is itself ahp/messageSegment.
	RuleNestedSegment
	// RuleDuplicateGroup: a segment with index 0 arrives for a groupId that
	// is already in flight.
	RuleDuplicateGroup
	// RuleBudgetExceeded: the group buffer would exceed the reassembly
	// budget shared by all connections (Limits.Budget). Not an RFC rule: a
	// resource limit of this implementation, closed like a violation.
	RuleBudgetExceeded
)

var ruleNames = [...]string{
	RuleEnvelope:           "malformed segment envelope",
	RuleGroupID:            "groupId missing, empty or longer than 128 bytes",
	RuleIndex:              "index is not a non-negative integer below 2^31",
	RuleIndexNotBelowTotal: "index >= total",
	RuleIndexOrder:         "index is not the next expected index",
	RuleTotal:              "total is not an integer in [1, 2^16)",
	RuleTotalChanged:       "total changed mid-group",
	RuleData:               "data missing or not base64",
	RuleSegmentTooLarge:    "decoded segment exceeds maxIncomingFrameBytes",
	RuleMessageTooLarge:    "group exceeds maxIncomingMessageBytes",
	RuleTooManyGroups:      "too many in-flight groups",
	RuleInvalidUTF8:        "reassembled message is not valid UTF-8",
	RuleInvalidJSONRPC:     "reassembled message is not a JSON-RPC 2.0 message",
	RuleNestedSegment:      "reassembled message is itself ahp/messageSegment",
	RuleDuplicateGroup:     "groupId already in flight",
	RuleBudgetExceeded:     "reassembly budget exhausted",
}

// String returns a short description of the rule.
func (r Rule) String() string {
	if r > 0 && int(r) < len(ruleNames) {
		return ruleNames[r]
	}
	return fmt.Sprintf("rule(%d)", int(r))
}

// ViolationError is a protocol error found in a received segment. The
// transport must close with [CloseCode] / [CloseReason] and drop the table.
// It never contains message payload bytes.
type ViolationError struct {
	// Rule is the violated rule.
	Rule Rule
	// GroupID is the offending group id (truncated to 128 bytes), if known.
	GroupID string
	// Index is the segment index, or -1 if unknown.
	Index int64
	// Detail adds sizes or values (never payload).
	Detail string
}

// Error implements error.
func (e *ViolationError) Error() string {
	s := "segment: " + CloseReason + ": " + e.Rule.String()
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

// Is makes errors.Is(err, ErrViolation) true.
func (e *ViolationError) Is(target error) bool { return target == ErrViolation }

// RuleOf returns the violated rule if err wraps a *ViolationError.
func RuleOf(err error) (Rule, bool) {
	var v *ViolationError
	if errors.As(err, &v) {
		return v.Rule, true
	}
	return 0, false
}
