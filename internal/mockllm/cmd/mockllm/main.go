// Command mockllm serves one of the scripted model API mocks on loopback
// for scripts:
//
//	mockllm -api anthropic   the Anthropic Messages API (internal/mockanthropic)
//	mockllm -api openai      OpenAI chat completions and Responses (internal/mockopenai)
//	mockllm -api gemini      the Gemini API's generateContent (internal/mockgemini)
//
// It prints its base URL on the first line of stdout (or to -url-file),
// one line per request after it, and runs until SIGINT or SIGTERM.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/ahptui/ahptui/internal/mockanthropic"
	"github.com/ahptui/ahptui/internal/mockgemini"
	"github.com/ahptui/ahptui/internal/mockopenai"
)

// server is what every mock offers.
type server interface {
	Listen(addr string) (string, error)
	Close() error
}

// newServer returns the mock of api, its request bodies dumped into dump.
func newServer(api, dump string) (server, error) {
	switch api {
	case "anthropic":
		s := mockanthropic.New(func(l mockanthropic.Logged) {
			fmt.Printf("%s %s stream=%v reply=%s prompt=%q\n", l.Method, l.Path, l.Stream, l.Reply, l.Prompt)
		})
		s.Dump = dump
		return s, nil
	case "openai", "responses":
		s := mockopenai.New(func(path, prompt, reply string) {
			fmt.Printf("POST %s reply=%s prompt=%q\n", path, reply, prompt)
		})
		s.Dump = dump
		return s, nil
	case "gemini":
		s := mockgemini.New(func(method, path, prompt, reply string) {
			fmt.Printf("%s %s reply=%s prompt=%q\n", method, path, reply, prompt)
		})
		s.Dump = dump
		return s, nil
	}
	return nil, fmt.Errorf("mockllm: unknown -api %q (anthropic, openai, gemini)", api)
}

func main() {
	api := flag.String("api", "", "the API to serve: anthropic, openai (chat completions and Responses) or gemini")
	addr := flag.String("addr", "127.0.0.1:0", "loopback address to listen on")
	urlFile := flag.String("url-file", "", "also write the base URL to this file")
	dump := flag.String("dump", "", "write every request body into this directory")
	flag.Parse()
	srv, err := newServer(*api, *dump)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	u, err := srv.Listen(*addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	fmt.Println(u)
	if *urlFile != "" {
		err := os.WriteFile(*urlFile+".tmp", []byte(u+"\n"), 0o600)
		if err == nil {
			err = os.Rename(*urlFile+".tmp", *urlFile)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "mockllm: write url file:", err)
			os.Exit(1)
		}
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	_ = srv.Close()
}
