package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"sync"

	sdk "github.com/coder/acp-go-sdk"
)

// FAKEACP_MODELS=1 makes the fake announce models the way agents did
// before config options (ACP's unstable session models, which the SDK
// dropped): session/new answers carry "models" (fake-small, fake-large),
// and session/set_model requests are answered here, beside the SDK.
// The "model" script says the session's model.

// FAKEACP_MODELS=unlisted announces them with a current model that is not
// among those offered ("fake-base" among fake-small and fake-large), as
// Codex's adapter does ("gpt-5.5" among "gpt-5.5[low]", …).

// modelsOn reports whether the fake announces models.
func modelsOn() bool { m := os.Getenv("FAKEACP_MODELS"); return m == "1" || m == "unlisted" }

// currentModel is the model a new session announces.
func currentModel() string {
	if os.Getenv("FAKEACP_MODELS") == "unlisted" {
		return "fake-base"
	}
	return "fake-small"
}

// models is the fake's model of each session (guarded by its mutex).
var models = struct {
	sync.Mutex
	of map[string]string
}{of: map[string]string{}}

// modelOf returns session id's model.
func modelOf(id sdk.SessionId) string {
	models.Lock()
	defer models.Unlock()
	if m, ok := models.of[string(id)]; ok {
		return m
	}
	return currentModel()
}

// stdoutWriter writes the SDK's messages, one per Write, adding the
// models to session/new answers.
type stdoutWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *stdoutWriter) Write(b []byte) (int, error) {
	out := b
	if bytes.Contains(b, []byte(`"modes"`)) && bytes.Contains(b, []byte(`"sessionId"`)) {
		var msg map[string]json.RawMessage
		var res map[string]json.RawMessage
		if json.Unmarshal(b, &msg) == nil && json.Unmarshal(msg["result"], &res) == nil && res["sessionId"] != nil {
			res["models"] = json.RawMessage(`{"currentModelId":"` + currentModel() + `","availableModels":[{"modelId":"fake-small","name":"Fake small"},{"modelId":"fake-large","name":"Fake large"}]}`)
			msg["result"], _ = json.Marshal(res)
			if nb, err := json.Marshal(msg); err == nil {
				out = append(nb, '\n')
			}
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, err := s.w.Write(out); err != nil {
		return 0, err
	}
	return len(b), nil
}

// modelStdin passes stdin to the SDK except session/set_model requests,
// which it answers itself.
func modelStdin(in io.Reader, out *stdoutWriter) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		r := bufio.NewReader(in)
		for {
			line, err := r.ReadBytes('\n')
			if len(line) > 0 && !setModel(line, out) {
				if _, werr := pw.Write(line); werr != nil {
					return
				}
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

// setModel answers line when it is a session/set_model request.
func setModel(line []byte, out *stdoutWriter) bool {
	if !bytes.Contains(line, []byte(`"session/set_model"`)) {
		return false
	}
	var req struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params struct {
			SessionID string `json:"sessionId"`
			ModelID   string `json:"modelId"`
		} `json:"params"`
	}
	if json.Unmarshal(line, &req) != nil || req.Method != "session/set_model" {
		return false
	}
	models.Lock()
	models.of[req.Params.SessionID] = req.Params.ModelID
	models.Unlock()
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": req.ID, "result": map[string]any{}})
	_, _ = out.Write(append(b, '\n'))
	return true
}

// Logout signs out (the fake forgets its sign-in).
func (f *fake) Logout(ctx context.Context, p sdk.LogoutRequest) (sdk.LogoutResponse, error) {
	f.mu.Lock()
	f.authed = ""
	f.mu.Unlock()
	return sdk.LogoutResponse{}, nil
}
