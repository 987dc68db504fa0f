package cli

import (
	"github.com/ahptui/ahptui/ahphost"
	"github.com/ahptui/ahptui/ahphost/demo"
)

// The host has no agent of its own: hosts these tests build without one run
// the scripted demo agent.
func init() { ahphost.NewDefaultAgent = demo.Factory }
