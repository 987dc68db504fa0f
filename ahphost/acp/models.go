package acp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"

	sdk "github.com/coder/acp-go-sdk"
)

// The SDK (v0.13.5) dropped ACP's unstable session models — the "models"
// of session/new, session/load and session/resume answers and the
// session/set_model request — in favour of config options, but many agents
// still announce models only that way. The bridge keeps them beside the
// SDK: legacyRPC sits between the SDK and the agent's stdin (it sees the
// SDK's requests, one message per Write) and the agent reader shows it the
// answers before the SDK reads them (peek).

// modelInfo is one model an agent offers (ACP's unstable ModelInfo).
type modelInfo struct {
	ModelID string `json:"modelId"`
	Name    string `json:"name"`
}

// modelState is a session's models (ACP's unstable SessionModelState).
type modelState struct {
	AvailableModels []modelInfo `json:"availableModels"`
	CurrentModelID  string      `json:"currentModelId"`
}

// legacyRPC carries session models and session/set_model for one agent
// connection.
type legacyRPC struct {
	w  io.Writer
	wm sync.Mutex // serialises writes to w (the SDK's and setModel's)

	// mu guards the rest. It is never held while writing: a write blocks
	// while the agent does not read its stdin, and the agent reader takes
	// mu (peek) for every answer and request it reads; the agent's
	// requests must still be read, and answered or refused, meanwhile.
	mu     sync.Mutex
	asked  map[string]string      // id of a session request → its session id ("" = session/new)
	models map[string]*modelState // announced models by ACP session id, until taken
	waits  map[string]chan legacyAnswer
	next   uint64
}

// legacyAnswer is the answer to a request of the bridge's own.
type legacyAnswer struct {
	err *sdk.RequestError
}

// Bounds: what an agent that never answers can leave behind.
const maxLegacyPending = 256

func newLegacyRPC(w io.Writer) *legacyRPC {
	return &legacyRPC{w: w, asked: map[string]string{}, models: map[string]*modelState{}, waits: map[string]chan legacyAnswer{}}
}

var sessionMethods = [][]byte{[]byte(`"session/new"`), []byte(`"session/load"`), []byte(`"session/resume"`)}

// Write passes one SDK message to the agent, noting the ids of session
// requests (their answers may carry models).
func (l *legacyRPC) Write(b []byte) (int, error) {
	l.note(b)
	l.wm.Lock()
	defer l.wm.Unlock()
	n, err := l.w.Write(b)
	if err != nil {
		return n, fmt.Errorf("writing to the agent: %w", err)
	}
	return n, nil
}

// note records the id of a session request about to be written (before
// it is written: its answer cannot come earlier).
func (l *legacyRPC) note(b []byte) {
	for _, m := range sessionMethods {
		if !bytes.Contains(b, m) {
			continue
		}
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params struct {
				SessionID string `json:"sessionId"`
			} `json:"params"`
		}
		if json.Unmarshal(b, &req) != nil || len(req.ID) == 0 || string(m) != `"`+req.Method+`"` {
			return
		}
		l.mu.Lock()
		if len(l.asked) < maxLegacyPending {
			l.asked[string(req.ID)] = req.Params.SessionID
		}
		l.mu.Unlock()
		return
	}
}

// peek looks at a line the SDK reads next: the answer to a session request
// leaves its models; the answer to the bridge's own request goes to its
// waiter (the SDK ignores an answer it did not ask for).
func (l *legacyRPC) peek(line []byte) {
	if l == nil || !bytes.Contains(line, []byte(`"id"`)) {
		return
	}
	l.mu.Lock()
	none := len(l.asked) == 0 && len(l.waits) == 0
	l.mu.Unlock()
	if none {
		return
	}
	var msg struct {
		ID     json.RawMessage   `json:"id"`
		Method string            `json:"method"`
		Result json.RawMessage   `json:"result"`
		Error  *sdk.RequestError `json:"error"`
	}
	if json.Unmarshal(line, &msg) != nil || len(msg.ID) == 0 || msg.Method != "" {
		return
	}
	key := string(msg.ID)
	l.mu.Lock()
	defer l.mu.Unlock()
	if w, ok := l.waits[key]; ok {
		delete(l.waits, key)
		w <- legacyAnswer{err: msg.Error}
		return
	}
	sid, ok := l.asked[key]
	if !ok {
		return
	}
	delete(l.asked, key)
	var res struct {
		SessionID string      `json:"sessionId"`
		Models    *modelState `json:"models"`
	}
	if msg.Error != nil || json.Unmarshal(msg.Result, &res) != nil || res.Models == nil {
		return
	}
	if sid == "" {
		sid = res.SessionID
	}
	if sid != "" && len(l.models) < maxLegacyPending {
		l.models[sid] = res.Models
	}
}

// modelsOf returns (and forgets) the models announced for session sid.
func (l *legacyRPC) modelsOf(sid sdk.SessionId) *modelState {
	if l == nil {
		return nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	m := l.models[string(sid)]
	delete(l.models, string(sid))
	return m
}

// setModel sends session/set_model and waits (bounded by ctx) for its answer.
func (l *legacyRPC) setModel(ctx context.Context, sid sdk.SessionId, model string) error {
	l.mu.Lock()
	l.next++
	id := fmt.Sprintf(`"ahptui-model-%d"`, l.next)
	w := make(chan legacyAnswer, 1)
	l.waits[id] = w
	l.mu.Unlock()
	defer func() {
		l.mu.Lock()
		delete(l.waits, id)
		l.mu.Unlock()
	}()
	req, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": json.RawMessage(id), "method": "session/set_model",
		"params": map[string]any{"sessionId": sid, "modelId": model}})
	if err != nil {
		return fmt.Errorf("session/set_model: %w", err)
	}
	if _, err := l.Write(append(req, '\n')); err != nil {
		return fmt.Errorf("session/set_model: %w", err)
	}
	select {
	case a := <-w:
		if a.err != nil {
			return a.err
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("session/set_model: %w", ctx.Err())
	}
}
