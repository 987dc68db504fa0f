package ahphost

import (
	"github.com/ahptui/ahptui/ahphost/demo"
)

// The host has no agent of its own: hosts these tests build without one run
// the scripted demo agent.
func init() { NewDefaultAgent = demo.Factory }
