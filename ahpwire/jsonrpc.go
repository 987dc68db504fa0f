package ahpwire

import (
	"encoding/json"
	"fmt"

	"github.com/ahptui/ahptui/internal/jsonscan"
)

// JSONRPCVersion is the value of the "jsonrpc" member of every message.
const JSONRPCVersion = "2.0"

// Standard JSON-RPC 2.0 and AHP error codes (PROTOCOL.md §8, Part A §2).
const (
	CodeParseError                 = -32700
	CodeInvalidRequest             = -32600
	CodeMethodNotFound             = -32601
	CodeInvalidParams              = -32602
	CodeInternalError              = -32603
	CodeClientShutdown             = -32000
	CodeSessionNotFound            = -32001
	CodeProviderNotFound           = -32002
	CodeSessionAlreadyExists       = -32003
	CodeTurnInProgress             = -32004
	CodeUnsupportedProtocolVersion = -32005
	CodeAuthRequired               = -32007
	CodeNotFound                   = -32008
	CodePermissionDenied           = -32009
	CodeAlreadyExists              = -32010
	CodeConflict                   = -32011
	CodeTCPConnectionOpenFailed    = -32012
	// CodeMessageTooLarge is this project's code for an over-limit message
	// (Part A §2; the chunking RFC's -32011 collides with Conflict).
	CodeMessageTooLarge = -32050
)

// Message is one JSON-RPC 2.0 message: a request (ID and Method), a
// notification (Method, no ID) or a response (ID with Result or Error).
// Params and Result are kept raw so callers decode them into the type the
// method implies.
type Message struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      *uint64         `json:"id,omitempty"`
	Method  string          `json:"method,omitempty"`
	Params  json.RawMessage `json:"params,omitempty"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   *RPCError       `json:"error,omitempty"`
}

// messageFields is Message without its methods (the plain struct encoding
// that MarshalJSON and UnmarshalJSON build on).
type messageFields Message

// RPCError is a JSON-RPC error object. It implements error.
type RPCError struct {
	Code    int             `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

// Error formats the code and message.
func (e *RPCError) Error() string {
	return fmt.Sprintf("jsonrpc error %d: %s", e.Code, e.Message)
}

// IsRequest reports whether m is a request (has both an id and a method).
func (m *Message) IsRequest() bool { return m.ID != nil && m.Method != "" }

// IsNotification reports whether m is a notification (method, no id).
func (m *Message) IsNotification() bool { return m.ID == nil && m.Method != "" }

// IsResponse reports whether m is a response (id, no method).
func (m *Message) IsResponse() bool { return m.Method == "" && (m.ID != nil || m.Error != nil) }

// MarshalJSON writes the message; a response always carries exactly one of
// result (null when empty) or error.
func (m Message) MarshalJSON() ([]byte, error) {
	w := messageFields(m)
	if m.Method == "" && m.ID == nil && m.Error != nil {
		// An error response to an unidentifiable request carries "id": null.
		type nullID struct {
			JSONRPC string    `json:"jsonrpc"`
			ID      *uint64   `json:"id"`
			Error   *RPCError `json:"error"`
		}
		return json.Marshal(nullID{JSONRPC: JSONRPCVersion, Error: m.Error})
	}
	if w.JSONRPC == "" {
		w.JSONRPC = JSONRPCVersion
	}
	if m.IsResponse() && m.Error == nil && len(m.Result) == 0 {
		w.Result = json.RawMessage("null")
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes a message, keeping an explicit "result": null as
// the raw bytes "null" so that it is distinguishable from an absent result.
// A message naming an envelope member twice, or in the wrong case
// ("Method"), is refused: encoding/json would take the last one, the
// segment layer the first (jsonscan.CheckEnvelopeKeys).
func (m *Message) UnmarshalJSON(data []byte) error {
	var w messageFields
	if err := json.Unmarshal(data, &w); err != nil {
		return fmt.Errorf("ahpwire: decode jsonrpc message: %w", err)
	}
	if err := jsonscan.CheckEnvelopeKeys(data); err != nil {
		return fmt.Errorf("ahpwire: decode jsonrpc message: %w", err)
	}
	*m = Message(w)
	return nil
}

// Validate reports a structural problem with m (wrong version, neither
// request, notification nor response, or a response with both result and
// error).
func (m *Message) Validate() error {
	if m.JSONRPC != JSONRPCVersion {
		return fmt.Errorf("ahpwire: jsonrpc version %q, want %q", m.JSONRPC, JSONRPCVersion)
	}
	switch {
	case m.Method != "":
		if m.Result != nil || m.Error != nil {
			return fmt.Errorf("ahpwire: message %q carries result or error", m.Method)
		}
	case m.ID != nil || m.Error != nil:
		if m.Error != nil && m.Result != nil && string(m.Result) != "null" {
			return fmt.Errorf("ahpwire: response carries both result and error")
		}
		if m.Error == nil && m.Result == nil {
			return fmt.Errorf("ahpwire: response carries neither result nor error")
		}
	default:
		return fmt.Errorf("ahpwire: message has neither method nor id")
	}
	return nil
}

func rawOf(v any) (json.RawMessage, error) {
	if v == nil {
		return nil, nil
	}
	if r, ok := v.(json.RawMessage); ok {
		return r, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return b, nil
}

// NewRequest builds a request with the given id and params (marshalled
// with encoding/json; a json.RawMessage is used as is).
func NewRequest(id uint64, method string, params any) (*Message, error) {
	m, err := NewNotification(method, params)
	if err != nil {
		return nil, err
	}
	m.ID = &id
	return m, nil
}

// NewNotification builds a notification with the given params.
func NewNotification(method string, params any) (*Message, error) {
	p, err := rawOf(params)
	if err != nil {
		return nil, fmt.Errorf("ahpwire: marshal %s params: %w", method, err)
	}
	return &Message{JSONRPC: JSONRPCVersion, Method: method, Params: p}, nil
}

// NewResult builds a success response; a nil result encodes as null.
func NewResult(id uint64, result any) (*Message, error) {
	r, err := rawOf(result)
	if err != nil {
		return nil, fmt.Errorf("ahpwire: marshal result: %w", err)
	}
	if r == nil {
		r = json.RawMessage("null")
	}
	return &Message{JSONRPC: JSONRPCVersion, ID: &id, Result: r}, nil
}

// NewError builds an error response. data may be nil.
func NewError(id uint64, code int, message string, data any) *Message {
	e := &RPCError{Code: code, Message: message}
	if data != nil {
		if d, err := rawOf(data); err == nil {
			e.Data = d
		}
	}
	return &Message{JSONRPC: JSONRPCVersion, ID: &id, Error: e}
}

// DecodeParams unmarshals m.Params into v, wrapping errors with the method.
func (m *Message) DecodeParams(v any) error {
	if len(m.Params) == 0 {
		return fmt.Errorf("ahpwire: %s: missing params", m.Method)
	}
	if err := json.Unmarshal(m.Params, v); err != nil {
		return fmt.Errorf("ahpwire: %s params: %w", m.Method, err)
	}
	return nil
}

// DecodeResult unmarshals m.Result into v.
func (m *Message) DecodeResult(v any) error {
	if err := json.Unmarshal(m.Result, v); err != nil {
		return fmt.Errorf("ahpwire: decode result: %w", err)
	}
	return nil
}
