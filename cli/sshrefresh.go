package cli

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/ahptui/ahptui/ahpclient"
	"github.com/ahptui/ahptui/ahpwire"
)

// A host `ahptui ssh` finds running may be older than this ahptui, or
// serve fewer agents than --agent asks for. A running host cannot change
// either, so it is restarted — on this version, with every agent it served
// plus the new ones — but only when it was started detached (by `ahptui
// ssh`, not by someone in a terminal there) and none of its sessions is at
// work (a turn running or waiting for the user): any other is left alone,
// and the user is told how to do it later.

// sshCall is how to run commands on one SSH destination.
type sshCall struct {
	bin  string
	base []string
	dest string
	log  *slog.Logger
}

// busyCheckTimeout bounds the look at a running host's sessions.
const busyCheckTimeout = 10 * time.Second

// refresh restarts the running host st when it is older than this ahptui
// or lacks an agent o asks for, and it is idle.
func (l *sshLink) refresh(ctx context.Context, c sshCall, o sshOpts, st serveState, p probe) {
	upgrade := o.remoteBin == "" && olderVersion(st.Version, version)
	missing := missingAgents(st.Agents, o.agents)
	if !upgrade && len(missing) == 0 {
		return
	}
	why := fmt.Sprintf("runs ahptui %s (this is %s)", st.Version, version)
	if !upgrade {
		why = "serves " + agentList(st.Agents) + ", not " + strings.Join(agentNames(missing), ", ")
	}
	if !st.Detached { // someone runs it by hand: not ours to restart
		l.note(fmt.Sprintf("the host on %s %s; it was not started by ahptui ssh, so it was left running "+
			"(restart it there%s)", o.dest, why, restartGain(upgrade, missing)))
		return
	}
	busy, err := hostBusy(ctx, l.url, l.host.token)
	if err != nil || busy > 0 {
		reason := fmt.Sprintf("%d of its sessions are at work", busy)
		if err != nil {
			reason = "its sessions could not be checked (" + redactErr(err) + ")"
		}
		l.note(fmt.Sprintf("the host on %s %s and %s, so it was left running: `ahptui ssh %s --stop`, then `ahptui ssh %s%s` restarts it%s",
			o.dest, why, reason, o.dest, o.dest, agentFlags(append(append([]string(nil), st.Agents...), missing...)), restartGain(upgrade, missing)))
		return
	}
	rbin := st.Bin
	if upgrade || rbin == "" {
		bin, note, err := remoteBinFor(ctx, c.bin, c.base, c.dest, o, p)
		if err != nil {
			l.note(fmt.Sprintf("the host on %s %s; it was left running: %v", o.dest, why, err))
			return
		}
		rbin = bin
		l.note(note)
	}
	agents := append(append([]string(nil), st.Agents...), missing...)
	if _, err := stopRemote(ctx, c, st.PID); err != nil {
		l.note(fmt.Sprintf("the host on %s %s; stopping it failed, so it was left running: %v", o.dest, why, err))
		return
	}
	h, err := startRemoteServe(ctx, c.bin, c.base, c.dest, rbin, agents)
	if err == nil {
		l.host = h
		err = l.forward(c.bin, c.base, c.dest, c.log)
	}
	if err != nil {
		l.note(fmt.Sprintf("the host on %s was stopped to restart it, and the restart failed: %v", o.dest, err))
		return
	}
	l.note(fmt.Sprintf("the host on %s %s and was idle: restarted it%s", o.dest, why, restartGain(upgrade, missing)))
}

// restartGain says what a restart brings.
func restartGain(upgrade bool, missing []string) string {
	var parts []string
	if upgrade {
		parts = append(parts, "on ahptui "+version)
	}
	if len(missing) > 0 {
		parts = append(parts, "with --agent "+strings.Join(agentNames(missing), ", --agent "))
	}
	return " " + strings.Join(parts, " and ")
}

// missingAgents are the values of want whose agent name served lacks.
func missingAgents(served, want []string) []string {
	have := map[string]bool{}
	for _, a := range served {
		have[agentName(a)] = true
	}
	var out []string
	for _, a := range want {
		if !have[agentName(a)] {
			have[agentName(a)] = true
			out = append(out, a)
		}
	}
	return out
}

// agentName is the NAME of an --agent NAME[=COMMAND] value.
func agentName(arg string) string {
	n, _, _ := strings.Cut(arg, "=")
	return strings.TrimSpace(n)
}

// agentNames maps agentName over args.
func agentNames(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = agentName(a)
	}
	return out
}

// agentList names the agents a host serves for people.
func agentList(args []string) string {
	if len(args) == 0 {
		return "the demo agent"
	}
	return strings.Join(agentNames(args), ", ")
}

// agentFlags is " --agent A --agent B", quoted for a shell.
func agentFlags(args []string) string {
	var b strings.Builder
	for _, a := range args {
		b.WriteString(" --agent ")
		if strings.ContainsAny(a, " \t'\"$`\\;&|<>()*?") {
			b.WriteString(shellQuote(a))
		} else {
			b.WriteString(a)
		}
	}
	return b.String()
}

// hostBusy counts the host's sessions that are at work: a turn running,
// or waiting for the user.
func hostBusy(ctx context.Context, url, token string) (int, error) {
	ctx, cancel := context.WithTimeout(ctx, busyCheckTimeout)
	defer cancel()
	c, err := ahpclient.New(ahpclient.Options{URL: url, Token: token, ClientID: "ahptui-ssh-check"})
	if err != nil {
		return 0, fmt.Errorf("check the host: %w", err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		return 0, fmt.Errorf("check the host: %w", err)
	}
	busy, cursor := 0, ""
	for page := 0; page < maxPages; page++ {
		res, err := c.ListSessions(ctx, sessionsPage, cursor)
		if err != nil {
			return 0, fmt.Errorf("list the host's sessions: %w", err)
		}
		for _, s := range res.Items {
			if a := s.Status.Activity(); a == ahpwire.StatusInProgress || a == ahpwire.StatusInputNeeded {
				busy++
			}
		}
		if res.NextCursor == "" || res.NextCursor == cursor {
			break
		}
		cursor = res.NextCursor
	}
	return busy, nil
}
