// Command mockopenai serves the scripted OpenAI chat completions mock (package
// internal/mockopenai) on loopback for scripts: it prints its base URL on
// the first line of stdout (or to -url-file), one line per request after
// it, and runs until SIGINT or SIGTERM.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/signal"
	"syscall"

	"github.com/ahptui/ahptui/internal/mockopenai"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "loopback address to listen on")
	urlFile := flag.String("url-file", "", "also write the base URL to this file")
	dump := flag.String("dump", "", "write every request body into this directory")
	flag.Parse()
	srv := mockopenai.New(func(path, prompt, reply string) {
		fmt.Printf("POST %s reply=%s prompt=%q\n", path, reply, prompt)
	})
	srv.Dump = *dump
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
			fmt.Fprintln(os.Stderr, "mockopenai: write url file:", err)
			os.Exit(1)
		}
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	_ = srv.Close()
}
