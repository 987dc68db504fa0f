// Package config reads ahptui's configuration file,
// $XDG_CONFIG_HOME/ahptui/config.toml (or ~/.config/ahptui/config.toml):
// named hosts, the default host, the theme, notification settings and key
// overrides. Every mistake is reported with the file, the line and the
// key, and no token is ever stored in clear unless a host opts in.
//
//	default = "work"
//	theme   = "dark"             # auto, dark or light
//
//	[notify]
//	bell    = true
//	desktop = "osc9"             # off, osc9, osc777 or osc99
//	events  = ["needs-input", "turn-end"]
//
//	[keys]
//	"global.quit" = ["ctrl+q"]   # context.action = key or [keys]
//
//	[hosts.work]
//	url       = "wss://agents.example.com/"
//	token_env = "WORK_AHP_TOKEN" # or token_cmd = "pass show ahp/work"
//
//	[hosts.box]
//	ssh   = "me@box.example.com:2222"  # attach through `ahptui ssh`
//	agents = ["claude"]                # what a host started there serves
//	# start = false: only attach to a running host (default: start a
//	#   detached ahptui serve there, copying this ahptui over when needed)
//	# release = "~/dl/ahptui_1.2.3_linux_arm64.tar.gz" (or an https URL):
//	#   the ahptui to copy to a machine this one cannot run on
//	# socket = "/run/agent.sock" or port = 8080: a host already listening
//	# remote_bin = "/opt/bin/ahptui": the remote ahptui for start
//
//	[agents.claude]                    # ahptui serve --agent claude
//	command = "claude-agent-acp"       # run directly, no shell
//	args    = []
//	env     = { ANTHROPIC_BASE_URL = "http://127.0.0.1:8080" }
package config
