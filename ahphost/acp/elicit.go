package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"
	"sync"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ahptui/ahptui/ahpwire"
)

// Elicitation (ACP's unstable elicitation/create) becomes an AHP input
// request in the asking session's running turn: a form's fields become
// questions (elicitschema.go), a URL request a request with its URL; the
// user's accept, decline or cancel (chat/inputCompleted) goes back as the
// elicitation's answer. Claude Code's adapter asks its AskUserQuestion
// tool's questions so, when the client advertises form elicitation.
//
// The SDK decodes the request without its scope (sessionId, toolCallId)
// and without the order of the form's fields, so the reader peeks at the
// request line first (peekElicitation) and the handler takes what it read
// by the request's message (takeScope). A request that names no session
// goes to the agent's only running turn; with none (or several) it is
// cancelled, as is one that arrives when no turn runs.

// elicitationCapabilities is what the bridge advertises at initialize.
var elicitationCapabilities = &sdk.ElicitationCapabilities{
	Form: &sdk.ElicitationFormCapabilities{},
	Url:  &sdk.ElicitationUrlCapabilities{},
}

// elicitMarker is in every elicitation/create request line.
var elicitMarker = []byte(`"elicitation/create"`)

// elicitScope is what the reader read of one elicitation/create line.
type elicitScope struct {
	key      string   // elicitKey of the request
	session  string   // ACP session id ("" = none named)
	toolCall string   // ACP tool call id
	order    []string // the form's property names as written
}

// elicitScopes holds the scopes read and not yet taken (bounded).
type elicitScopes struct {
	mu sync.Mutex
	q  []elicitScope
}

// maxScopes bounds the scopes kept (an agent that floods requests the
// bridge refuses loses only their scopes).
const maxScopes = 64

// peek records the scope of line when it is an elicitation/create request.
func (e *elicitScopes) peek(line []byte) {
	if !bytes.Contains(line, elicitMarker) {
		return
	}
	var msg struct {
		Method string `json:"method"`
		Params struct {
			SessionID  string `json:"sessionId"`
			ToolCallID string `json:"toolCallId"`
			Scope      *struct {
				SessionID  string `json:"sessionId"`
				ToolCallID string `json:"toolCallId"`
			} `json:"scope"`
			Mode            string          `json:"mode"`
			Message         string          `json:"message"`
			URL             string          `json:"url"`
			RequestedSchema json.RawMessage `json:"requestedSchema"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.Method != sdk.ClientMethodElicitationCreate {
		return
	}
	p := msg.Params
	sc := elicitScope{key: elicitKey(p.Mode, p.Message, p.URL), session: p.SessionID, toolCall: p.ToolCallID}
	if p.Scope != nil && sc.session == "" {
		sc.session, sc.toolCall = p.Scope.SessionID, p.Scope.ToolCallID
	}
	sc.order = propertyOrder(p.RequestedSchema)
	e.mu.Lock()
	defer e.mu.Unlock()
	if len(e.q) == maxScopes {
		e.q = append(e.q[:0:0], e.q[1:]...)
	}
	e.q = append(e.q, sc)
}

// take removes and returns the oldest scope read for key.
func (e *elicitScopes) take(key string) (elicitScope, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	for i, sc := range e.q {
		if sc.key == key {
			e.q = append(e.q[:i:i], e.q[i+1:]...)
			return sc, true
		}
	}
	return elicitScope{}, false
}

// elicitKey identifies a request between the reader and the handler.
func elicitKey(mode, message, url string) string {
	return mode + "\x00" + message + "\x00" + url
}

// propertyOrder lists the property names of a form schema as written.
func propertyOrder(schema json.RawMessage) []string {
	var s struct {
		Properties json.RawMessage `json:"properties"`
	}
	if len(schema) == 0 || json.Unmarshal(schema, &s) != nil || len(s.Properties) == 0 {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(s.Properties))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	var out []string
	for dec.More() && len(out) <= maxElicitFields {
		t, err := dec.Token()
		if err != nil {
			return out
		}
		k, _ := t.(string)
		out = append(out, k)
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return out
		}
	}
	return out
}

// UnstableCreateElicitation asks the user through an AHP input request.
func (c *client) UnstableCreateElicitation(ctx context.Context, req sdk.UnstableCreateElicitationRequest) (sdk.UnstableCreateElicitationResponse, error) {
	cancel := sdk.NewUnstableCreateElicitationResponseCancel()
	var ir ahpwire.ChatInputRequest
	var key string
	switch {
	case req.Form != nil:
		key = elicitKey("form", req.Form.Message, "")
		ir.Message = req.Form.Message
	case req.Url != nil:
		key = elicitKey("url", req.Url.Message, req.Url.Url)
		ir.Message, ir.URL = req.Url.Message, req.Url.Url
	default:
		return cancel, nil
	}
	sc, _ := c.elicit.take(key)
	tm := c.b.elicitTurn(sc.session)
	if tm == nil {
		c.b.log.Warn("elicitation outside a running turn: cancelled", "session", sc.session)
		return cancel, nil
	}
	var custom map[string]string
	if req.Form != nil {
		qs, cu, err := formQuestions(req.Form.RequestedSchema, sc.order)
		if err != nil {
			c.b.log.Warn("elicitation form the client cannot show: declined", "session", tm.s.uri, "err", err)
			return sdk.NewUnstableCreateElicitationResponseDecline(), nil
		}
		ir.Questions, custom = qs, cu
	}
	w, ok := tm.askInput(&ir)
	if !ok {
		return cancel, nil
	}
	select {
	case done, ok := <-w:
		if !ok || done == nil {
			return cancel, nil
		}
		switch done.Response {
		case ahpwire.InputAccept:
			res := sdk.NewUnstableCreateElicitationResponseAccept()
			if req.Form != nil {
				res.Accept.Content = formContent(ir.Questions, custom, done.Answers)
			}
			return res, nil
		case ahpwire.InputDecline:
			return sdk.NewUnstableCreateElicitationResponseDecline(), nil
		}
		return cancel, nil
	case <-ctx.Done():
		return cancel, nil
	}
}

// UnstableCompleteElicitation is the agent's note that a URL elicitation
// finished on its side: the request was answered already.
func (c *client) UnstableCompleteElicitation(context.Context, sdk.UnstableCompleteElicitationNotification) error {
	return nil
}

// UnstableCreateElicitation takes a slot of the bridge's limits first.
func (g gatedClient) UnstableCreateElicitation(ctx context.Context, p sdk.UnstableCreateElicitationRequest) (sdk.UnstableCreateElicitationResponse, error) {
	return gated(g, ctx, p, g.client.UnstableCreateElicitation)
}

// elicitTurn is the running turn of the ACP session named, else the
// bridge's only running turn when none is named.
func (b *Bridge) elicitTurn(acpID string) *turnMap {
	if acpID != "" {
		if s := b.sessionByACP(sdk.SessionId(acpID)); s != nil {
			return s.activeTurn()
		}
		return nil
	}
	running := b.runningTurns()
	if len(running) != 1 {
		return nil
	}
	return running[0]
}

// inputWait is one input request waiting for chat/inputCompleted, with
// the draft answers the clients set meanwhile.
type inputWait struct {
	ch     chan *ahpwire.ChatInputCompleted
	drafts map[string]ahpwire.ChatInputAnswer
}

// askInput emits the input request (its id made unique in the turn) and
// registers its waiter.
func (tm *turnMap) askInput(ir *ahpwire.ChatInputRequest) (chan *ahpwire.ChatInputCompleted, bool) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if tm.done {
		return nil, false
	}
	if tm.inputs == nil {
		tm.inputs = map[string]*inputWait{}
	}
	tm.asked++
	ir.ID = tm.t.TurnID + ".elicit-" + strconv.Itoa(tm.asked)
	w := &inputWait{ch: make(chan *ahpwire.ChatInputCompleted, 1), drafts: map[string]ahpwire.ChatInputAnswer{}}
	tm.inputs[ir.ID] = w
	tm.emitLocked(&ahpwire.ChatInputRequested{Request: *ir})
	return w.ch, true
}

// clientInput takes a client's draft answer or completion of one of the
// turn's input requests; it reports whether a was one.
func (tm *turnMap) clientInput(a ahpwire.Action) bool {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	switch a := a.(type) {
	case *ahpwire.ChatInputAnswerChanged:
		if w := tm.inputs[a.RequestID]; w != nil {
			if a.Answer == nil {
				delete(w.drafts, a.QuestionID)
			} else {
				w.drafts[a.QuestionID] = *a.Answer
			}
		}
		return true
	case *ahpwire.ChatInputCompleted:
		w := tm.inputs[a.RequestID]
		if w == nil {
			return true
		}
		delete(tm.inputs, a.RequestID)
		done := *a
		done.Answers = map[string]ahpwire.ChatInputAnswer{}
		for k, v := range w.drafts {
			done.Answers[k] = v
		}
		for k, v := range a.Answers {
			done.Answers[k] = v
		}
		w.ch <- &done
		return true
	}
	return false
}

// cancelInputsLocked answers every waiting input request "cancel".
// tm.mu is held.
func (tm *turnMap) cancelInputsLocked() {
	for id, w := range tm.inputs {
		close(w.ch)
		delete(tm.inputs, id)
	}
}
