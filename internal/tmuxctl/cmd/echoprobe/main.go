// Command echoprobe measures keystroke echo in a tmux pane: it types one
// letter at a time (GAP apart) and times each from the keystroke until the
// pane's composer line (the first line starting with PREFIX) shows every
// letter typed so far. One control-mode client does the typing and the
// polling (package tmuxctl), and the pane is captured only when it wrote
// output (or every 5 ms), so the probe itself adds little to what it
// measures. It prints one line per key on stderr with -v, then
// "p50/p90/max KEYS" in milliseconds on stdout.
//
//	echoprobe -t SESSION [-keys 20] [-gap 50ms] [-until TEXT] [-prefix ┃]
//
// With -until it stops after the first key whose capture shows TEXT (the
// end of a streaming reply: only keys typed while it streams count).
package main

import (
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/ahptui/ahptui/internal/tmuxctl"
)

func main() {
	target := flag.String("t", "", "tmux target pane or session")
	keys := flag.Int("keys", 20, "keys to type")
	gap := flag.Duration("gap", 50*time.Millisecond, "pause after each echo")
	until := flag.String("until", "", "stop once the pane shows this text")
	prefix := flag.String("prefix", "┃", "the composer line's first characters")
	timeout := flag.Duration("timeout", 30*time.Second, "longest wait for one echo")
	verbose := flag.Bool("v", false, "print each key's time on stderr")
	flag.Parse()
	if *target == "" || *keys < 1 {
		fmt.Fprintln(os.Stderr, "usage: echoprobe -t SESSION [-keys N] [-gap D] [-until TEXT] [-prefix P] [-v]")
		os.Exit(2)
	}
	c, err := tmuxctl.Attach(*target)
	if err != nil {
		fmt.Fprintln(os.Stderr, "echoprobe:", err)
		os.Exit(1)
	}
	samples, err := probe(c, *target, *keys, *gap, *until, *prefix, *timeout, *verbose)
	_ = c.Close()
	if err != nil {
		fmt.Fprintln(os.Stderr, "echoprobe:", err)
		os.Exit(1)
	}
	fmt.Println(summary(samples))
}

// probe types the keys and returns each one's echo time.
func probe(c *tmuxctl.Client, target string, keys int, gap time.Duration, until, prefix string, timeout time.Duration, verbose bool) ([]time.Duration, error) {
	var samples []time.Duration
	typed := ""
	for i := 0; i < keys; i++ {
		ch := byte('a' + i%26)
		typed += string(ch)
		drain(c.Output())
		t0 := time.Now()
		if _, err := c.Command(fmt.Sprintf("send-keys -t %s -H %02x", target, ch)); err != nil {
			return nil, err
		}
		var screen []string
		for {
			var err error
			if screen, err = c.Command("capture-pane -p -t " + target); err != nil {
				return nil, err
			}
			if echoed(composer(screen, prefix), prefix, typed) {
				break
			}
			if time.Since(t0) > timeout {
				return nil, fmt.Errorf("key %d: no echo within %s (composer %q)", i+1, timeout, composer(screen, prefix))
			}
			select {
			case <-c.Output():
			case <-time.After(5 * time.Millisecond):
			}
		}
		d := time.Since(t0)
		samples = append(samples, d)
		if verbose {
			fmt.Fprintf(os.Stderr, "key %d %q: %d ms\n", i+1, ch, d.Milliseconds())
		}
		if until != "" && strings.Contains(strings.Join(screen, "\n"), until) {
			break
		}
		time.Sleep(gap)
	}
	return samples, nil
}

// composer is the first screen line starting with prefix ("" if none).
func composer(screen []string, prefix string) string {
	for _, l := range screen {
		if strings.HasPrefix(l, prefix) {
			return l
		}
	}
	return ""
}

// echoed reports whether the composer line shows typed as its text (not
// somewhere in a placeholder such as "Message…").
func echoed(line, prefix, typed string) bool {
	return strings.HasPrefix(strings.TrimSpace(strings.TrimPrefix(line, prefix)), typed)
}

// drain empties a notification channel.
func drain(ch <-chan struct{}) {
	select {
	case <-ch:
	default:
	}
}

// summary formats p50/p90/max in milliseconds and the key count, the
// nearest-rank percentiles the scripts print.
func summary(samples []time.Duration) string {
	s := append([]time.Duration(nil), samples...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	k := len(s)
	rank := func(p int) time.Duration { return s[(k*p+99)/100-1] }
	return fmt.Sprintf("%d/%d/%d %d", rank(50).Milliseconds(), rank(90).Milliseconds(), s[k-1].Milliseconds(), k)
}
