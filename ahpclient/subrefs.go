package ahpclient

import "sync"

// subRefs counts the holds on each channel: every Subscribe takes one
// (from before its request is sent, so a hold in flight counts) and every
// Unsubscribe gives one back; only the last Unsubscribe drops the channel
// and tells the host. Two parts of one consumer that subscribe the same
// channel (a chat on screen and a brief read of it, say) then cannot end
// each other's subscription, whatever order their calls run in.
//
// Holds survive reconnects (the subscription is resumed for them); a
// channel the host could not restore (ChannelLostEvent) loses every hold,
// since each holder is told it is gone.
type subRefs struct {
	mu sync.Mutex
	n  map[string]int
}

// hold takes one hold on ch.
func (r *subRefs) hold(ch string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.n == nil {
		r.n = make(map[string]int)
	}
	r.n[ch]++
}

// release gives one hold on ch back and returns how many remain (0 also
// when ch had none).
func (r *subRefs) release(ch string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := r.n[ch] - 1
	if n <= 0 {
		delete(r.n, ch)
		return 0
	}
	r.n[ch] = n
	return n
}

// forget drops every hold on ch (the channel was lost).
func (r *subRefs) forget(ch string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.n, ch)
}

// count is the number of holds on ch.
func (r *subRefs) count(ch string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n[ch]
}
