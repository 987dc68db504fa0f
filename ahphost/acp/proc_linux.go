package acp

import "syscall"

// dieWithHost has the kernel kill the agent when the host process dies
// (PR_SET_PDEATHSIG). The signal follows the thread that started the
// agent; Go ends threads only under runtime.LockOSThread, which the
// bridge never holds while starting one.
func dieWithHost(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
