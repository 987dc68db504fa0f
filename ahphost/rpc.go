package ahphost

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/ahptui/ahptui/ahpwire"
	"github.com/ahptui/ahptui/internal/jsonscan"
)

// rpcError is a JSON-RPC error a handler returns.
type rpcError struct {
	code int
	msg  string
	data any
	// closeAfter closes the connection after the error is written.
	closeAfter string
}

func errInvalidParams(msg string) *rpcError {
	return &rpcError{code: ahpwire.CodeInvalidParams, msg: msg}
}

// sessionOf returns the session at uri, or the session-not-found error.
func (s *store) sessionOf(uri string) (*sessionEntry, *rpcError) {
	if se := s.sessions[uri]; se != nil {
		return se, nil
	}
	return nil, &rpcError{code: ahpwire.CodeSessionNotFound, msg: "session not found"}
}

// chatOf returns the chat at uri, or the chat-not-found error.
func (s *store) chatOf(uri string) (*chatEntry, *rpcError) {
	ce, err := s.chatOrErr(uri)
	switch {
	case err != nil:
		s.h.log.Error("cannot read a chat from the state database", "chat", truncate(uri, 200), "err", err)
		return nil, &rpcError{code: ahpwire.CodeInternalError, msg: unreadableChat}
	case ce != nil:
		return ce, nil
	}
	return nil, &rpcError{code: ahpwire.CodeNotFound, msg: "chat not found"}
}

// handlerFunc handles one request. It runs with h.mu held and must not
// block. The response is queued, still under the lock, before after runs,
// so follow-up envelopes are ordered after it. A *deferred result (large
// snapshots, replays) is encoded later by the connection's writer, outside
// the lock.
type handlerFunc func(c *conn, m *ahpwire.Message) (result any, after func(), err *rpcError)

// handlerEntry is a request method's handler and what it does before the
// lock: decoding its params.
type handlerEntry func(c *conn, m *ahpwire.Message) handlerFunc

// locked is the entry of a handler with nothing to do before the lock.
func locked(f handlerFunc) handlerEntry {
	return func(*conn, *ahpwire.Message) handlerFunc { return f }
}

// withParams adapts a handler of decoded params: every handler's one
// prologue, the params decoded (bounded, their required fields checked:
// decode) before the host lock is taken (readers of a long reply's pages
// no longer decoded theirs while the streaming agent waited for the lock),
// an invalid-params error without them. A request without params is an
// invalid-params error too, but for the methods whose every param is
// optional (paramsOptional): their handler gets P's zero value.
func withParams[P any](f func(c *conn, p *P) (any, func(), *rpcError)) handlerEntry {
	return func(_ *conn, m *ahpwire.Message) handlerFunc {
		var p P
		if len(m.Params) > 0 || !paramsOptional[m.Method] {
			if e := decode(m, &p); e != nil {
				return func(*conn, *ahpwire.Message) (any, func(), *rpcError) { return nil, nil, e }
			}
		}
		return func(c *conn, _ *ahpwire.Message) (any, func(), *rpcError) { return f(c, &p) }
	}
}

// paramsOptional lists the methods that may come without params (AHP:
// listSessions' limit and cursor are both optional).
var paramsOptional = map[string]bool{ahpwire.MethodListSessions: true}

// MaxRequestParamsBytes bounds the params of a request (commands carry
// URIs, cursors and short messages; bulk content travels in dispatchAction).
const MaxRequestParamsBytes = 4 << 20

// handlers maps request methods to handlers; ping, initialize and reconnect
// are also allowed before the connection is initialized.
var handlers = map[string]handlerEntry{
	ahpwire.MethodPing:           locked((*conn).ping),
	ahpwire.MethodInitialize:     withParams((*conn).initialize),
	ahpwire.MethodReconnect:      withParams((*conn).reconnect),
	ahpwire.MethodSubscribe:      withParams((*conn).subscribe),
	ahpwire.MethodListSessions:   withParams((*conn).listSessions),
	ahpwire.MethodCreateSession:  withParams((*conn).createSession),
	ahpwire.MethodDisposeSession: withParams((*conn).disposeSession),
	ahpwire.MethodCreateChat:     withParams((*conn).createChat),
	ahpwire.MethodDisposeChat:    withParams((*conn).disposeChat),
	ahpwire.MethodFetchTurns:     withParams((*conn).fetchTurns),
}

// preInit lists the methods allowed before initialize/reconnect.
var preInit = map[string]bool{
	ahpwire.MethodPing: true, ahpwire.MethodInitialize: true, ahpwire.MethodReconnect: true,
}

// handle decodes and dispatches one complete JSON-RPC message. Messages
// that are not valid JSON-RPC 2.0 requests or notifications (bad JSON, a
// "jsonrpc" other than "2.0", an id that is null, a string or not an
// integer) are answered with ParseError/InvalidRequest echoing the
// request's id when it has a usable one (JSON-RPC 2.0 §5), never dropped.
func (c *conn) handle(raw []byte) {
	var m ahpwire.Message
	err := json.Unmarshal(raw, &m)
	c.route(raw, &m, err == nil && m.ID == nil && hasIDMember(raw), err)
}

// route dispatches the message m decoded from raw. nullID reports an "id"
// member that decoded to nil (null); decodeErr is why raw could not be
// decoded (m is then unused).
func (c *conn) route(raw []byte, m *ahpwire.Message, nullID bool, decodeErr error) {
	if decodeErr != nil {
		c.h.log.Info("unparsable message", "conn", c.id, "bytes", len(raw))
		c.reject(raw, "invalid request")
		return
	}
	switch {
	case m.JSONRPC != ahpwire.JSONRPCVersion:
		c.h.log.Info("message without jsonrpc 2.0", "conn", c.id, "bytes", len(raw))
		c.reject(raw, `invalid request: "jsonrpc" must be "2.0"`)
	case nullID:
		c.reject(raw, "invalid request: id must be an integer")
	case m.IsRequest():
		c.request(m)
	case m.IsNotification():
		c.notification(m)
	case m.IsResponse():
		// Responses to server requests: the host sends none; ignore.
	default:
		c.reject(raw, "invalid request: no method")
	}
}

// reject queues the error answer for a message that is not a valid
// request: ParseError for bad JSON, InvalidRequest otherwise.
func (c *conn) reject(raw []byte, msg string) {
	c.h.mu.Lock()
	c.enqueue(outMsg{data: invalidAnswer(raw, msg), kind: kindResponse})
	c.h.mu.Unlock()
}

// hasIDMember reports whether raw is an object with an "id" member (of any
// value, null included).
func hasIDMember(raw []byte) bool {
	if !bytes.Contains(raw, []byte(`"id"`)) {
		return false
	}
	var probe struct {
		ID json.RawMessage `json:"id"`
	}
	return json.Unmarshal(raw, &probe) == nil && probe.ID != nil
}

// invalidAnswer builds the error answer for a message that is not valid
// JSON-RPC: ParseError for bad JSON, InvalidRequest otherwise. The id is
// the request's own when it is a string or a number (and named once),
// else null.
func invalidAnswer(raw []byte, msg string) []byte {
	code := ahpwire.CodeInvalidRequest
	id := json.RawMessage("null")
	if !json.Valid(raw) {
		code, msg = ahpwire.CodeParseError, "parse error"
	} else if jsonscan.CheckEnvelopeKeys(raw) == nil { // with duplicate members the id is ambiguous: null
		var probe struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(raw, &probe) == nil && len(probe.ID) > 0 && len(probe.ID) <= 256 &&
			(probe.ID[0] == '"' || probe.ID[0] == '-' || (probe.ID[0] >= '0' && probe.ID[0] <= '9')) {
			id = probe.ID
		}
	}
	var buf bytes.Buffer
	buf.WriteString(`{"jsonrpc":"2.0","id":`)
	buf.Write(id)
	buf.WriteString(`,"error":`)
	e, _ := json.Marshal(ahpwire.RPCError{Code: code, Message: msg})
	buf.Write(e)
	buf.WriteByte('}')
	return buf.Bytes()
}

// request runs a request handler and queues its response.
func (c *conn) request(m *ahpwire.Message) {
	id := *m.ID
	h := c.h
	if len(m.Params) > MaxRequestParamsBytes {
		// Handlers decode their params under the host lock; large payloads
		// belong in dispatchAction, which decodes before taking it.
		h.mu.Lock()
		c.enqueueError(id, errInvalidParams("params larger than "+strconv.Itoa(MaxRequestParamsBytes)+" bytes"))
		h.mu.Unlock()
		return
	}
	entry, ok := handlers[m.Method] // (handlers is not written after init)
	var fn handlerFunc
	if ok {
		fn = entry(c, m) // its params decoded before the lock
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	var (
		res    any
		after  func()
		rerr   *rpcError
		urgent bool
	)
	switch {
	case !ok:
		rerr = &rpcError{code: ahpwire.CodeMethodNotFound, msg: "method not found: " + truncate(m.Method, 64)}
	case !c.ready && !preInit[m.Method]:
		rerr = &rpcError{code: ahpwire.CodeInvalidRequest, msg: "connection not initialized: send initialize or reconnect first"}
	case c.readOnly && !watchMethods[m.Method]:
		rerr = errWatchOnly(m.Method) // auth.go
	default:
		before := h.st.seq
		res, after, rerr = fn(c, m)
		urgent = h.st.seq == before
	}
	if rerr != nil {
		c.enqueueError(id, rerr)
		return
	}
	if d, ok := res.(*deferred); ok {
		m := outMsg{kind: kindResponse, id: &id, deferred: d}
		if p := h.st.persist; p != nil && d.stored {
			m.at = max(1, p.durable.Load()) // written already: no wait for the next commit
		}
		c.enqueue(m)
	} else {
		c.enqueueResult(id, res, urgent)
	}
	if after != nil {
		after()
	}
}

// notification handles a client notification; unknown ones are ignored.
// Its params are decoded before the host lock is taken.
func (c *conn) notification(m *ahpwire.Message) {
	h := c.h
	switch m.Method {
	case ahpwire.MethodUnsubscribe:
		var p ahpwire.ChannelParams
		if err := m.DecodeParams(&p); err != nil {
			return
		}
		h.mu.Lock()
		defer h.mu.Unlock()
		if c.ready {
			h.st.unsubscribe(c, p.Channel)
		}
	case ahpwire.MethodDispatchAction:
		// Decoding, the required-fields check and re-encoding are
		// proportional to the action's size: all before the lock.
		var p ahpwire.DispatchActionParams
		if err := m.DecodeParams(&p); err != nil {
			h.log.Info("undecodable dispatchAction ignored", "conn", c.id, "err", err)
			return
		}
		raw, err := ahpwire.MarshalAction(p.Action)
		if err != nil {
			h.log.Info("unencodable dispatchAction ignored", "conn", c.id, "err", err)
			return
		}
		missing := requiredFieldsReason(m.Params)
		h.mu.Lock()
		defer h.mu.Unlock()
		if c.ready {
			c.dispatchAction(&p, raw, missing)
		}
	}
}

// enqueueResult queues a success response; h.mu is held.
func (c *conn) enqueueResult(id uint64, result any, urgent bool) {
	msg, err := ahpwire.NewResult(id, result)
	var b []byte
	if err == nil {
		b, err = json.Marshal(msg)
	}
	if err != nil {
		c.h.log.Error("cannot encode result", "conn", c.id, "err", err)
		c.enqueueError(id, &rpcError{code: ahpwire.CodeInternalError, msg: "cannot encode result"})
		return
	}
	c.enqueue(outMsg{data: b, kind: kindResponse, id: &id, urgent: urgent})
}

// enqueueError queues an error response; h.mu is held.
func (c *conn) enqueueError(id uint64, e *rpcError) {
	b, err := json.Marshal(ahpwire.NewError(id, e.code, e.msg, e.data))
	if err != nil {
		return
	}
	c.enqueue(outMsg{data: b, kind: kindResponse, id: &id, closeAfter: e.closeAfter})
}

// ping answers null, also before initialize.
func (c *conn) ping(*ahpwire.Message) (any, func(), *rpcError) { return nil, nil, nil }

// decode unmarshals params into v, mapping failures to -32602.
func decode(m *ahpwire.Message, v any) *rpcError {
	if err := m.DecodeParams(v); err != nil {
		return errInvalidParams("invalid params for " + m.Method)
	}
	return nil
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}
