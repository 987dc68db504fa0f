package cli

// runSSH implements `ahptui ssh` (see ssh_*.go).
func runSSH(cfg config, std stdio) int {
	printErr(std.err, "ahptui: ssh: not available in this build\n")
	return exitUsage
}

// runSSHHost attaches to a configured host that names an ssh destination.
func runSSHHost(cfg config, std stdio, t target) int {
	printErr(std.err, "ahptui: host %s is reached over SSH, which this build cannot do yet\n", t.name)
	return exitUsage
}
