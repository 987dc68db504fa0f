package cli

// usageText is `ahptui --help`.
const usageText = `ahptui — a terminal client for the Agent Host Protocol (AHP)

Usage:
  ahptui demo [flags]          start the embedded demo host on 127.0.0.1 and attach
  ahptui --agent NAME=COMMAND  start the embedded host with an ACP agent (Claude Code's
                               adapter, Codex, Gemini, ...) and open a new chat in the
                               current directory (--agent repeats; serve takes it too)
  ahptui [flags] URL           attach to an AHP host (ws://, wss:// or ws+unix:///socket;
                               ?tkn=TOKEN accepted)
  ahptui [flags] @NAME         attach to a host named in the config file
  ahptui [flags]               attach to the config file's default host (no default:
                               the inbox of every configured host)
  ahptui ssh [user@]host[:port] [--socket PATH | --port N | --start]
                               attach to an AHP host on a machine reached with ssh
                               (see: ahptui ssh --help)
  ahptui serve [serve flags]   run the embedded host without a UI (see: ahptui serve --help)
  ahptui exec [URL|@NAME] [--session ID] [--json] [--approve never|always|ask] [--agent NAME] [--cwd DIR] [PROMPT]
                               run one turn without the UI (prompt from stdin when
                               not given; see: ahptui exec --help)
  ahptui sessions [URL|@NAME] [--json]
                               list the host's sessions
  ahptui sessions --all [--json]
                               every configured host's sessions, grouped by host,
                               those that need you first
  ahptui export [URL|@NAME] SESSION [--format md|json]
                               print a whole chat, sanitised
  ahptui agents                the ACP agents ahptui can run (catalog and config file),
                               whether each is installed, and how to install it
  ahptui config path|check|edit
                               show, validate or edit the config file
  ahptui --help | --version

Flags:
  --token TOKEN    connection token (default $AHPTUI_TOKEN; overrides ?tkn= in the URL
                   and the config file)
  --config FILE    config file (default $AHPTUI_CONFIG, else
                   $XDG_CONFIG_HOME/ahptui/config.toml or ~/.config/ahptui/config.toml)
  --log FILE       write the log to FILE (default: $XDG_STATE_HOME/ahptui/ahptui.log)
  --theme NAME     auto, dark or light (default: the config file's, else auto)
  --mouse          capture the mouse (wheel scrolling); off by default, so the
                   terminal selects and copies text (config: mouse = true)
  --no-mouse       do not capture the mouse (overrides mouse = true)
  --print-url      with demo: no UI; print the demo host's URL (with its token) and serve
                   it until ctrl+c, for exec, sessions and export from another terminal
  -h, --help       show this help
  --version        print the version

In the UI press F1 (or ? in the transcript, or /help) for every key binding.

Environment:
  AHPTUI_TOKEN        connection token
  AHPTUI_CONFIG       config file path
  AHPTUI_SSH          the ssh program for ahptui ssh (default: ssh)
  NO_COLOR            no colours or escape sequences in exec/sessions/export output
  AHPTUI_DEMO_FAULTS  demo only: fault injection. "1" enables F12, which drops every
                      connection and refuses reconnects for 2 s; "drop-after=N" also
                      drops each connection after N frames
  AHPTUI_DEMO_PACE    demo only: delay between streamed chunks (default 12ms)

Exit codes:
  0 ok, 1 runtime or internal error (a crash restores the terminal first),
  2 usage error (also a bad config file), 3 cannot connect to the host (or the
  connection failed for good), 128+N ended by signal N (129 SIGHUP, 130 SIGINT,
  143 SIGTERM; the terminal is restored). exec has its own: see ahptui exec --help.
`
