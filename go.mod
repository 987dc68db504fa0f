module github.com/ahptui/ahptui

go 1.26.8

require (
	charm.land/bubbles/v2 v2.2.1
	charm.land/bubbletea/v2 v2.0.10 // pinned: v2.1.x needs an ultraviolet the module proxy refuses; never go get -u
	charm.land/glamour/v2 v2.0.1
	charm.land/lipgloss/v2 v2.0.6
	github.com/alecthomas/chroma/v2 v2.14.0
	github.com/charmbracelet/ultraviolet v0.0.0-20260811164956-006e29f97886
	github.com/charmbracelet/x/ansi v0.11.8
	github.com/charmbracelet/x/term v0.2.2
	github.com/charmbracelet/x/vt v0.1.0 // pinned: the VT emulator behind live terminals (render/liveterm.go)
	github.com/clipperhouse/displaywidth v0.11.0
	github.com/coder/acp-go-sdk v0.13.5 // ACP client/agent sides (ahphost/acp, internal/fakeacp); pinned
	github.com/coder/websocket v1.8.15
	github.com/creack/pty v1.1.24 // ptys of ACP terminals (ahphost/acp); pinned
	github.com/fsnotify/fsnotify v1.10.1 // resource watches (ahphost/watches.go); pinned
	github.com/pelletier/go-toml/v2 v2.4.3 // TOML config file (internal/config); pinned
	github.com/sahilm/fuzzy v0.1.3
	go.etcd.io/bbolt v1.5.0 // the host's state database (ahphost/durable); pinned
	golang.org/x/sys v0.47.0 // openat2 RESOLVE_BENEATH confining the agent's fs requests (ahphost/acp); pinned
)

require (
	github.com/atotto/clipboard v0.1.4 // indirect
	github.com/aymerick/douceur v0.2.0 // indirect
	github.com/charmbracelet/colorprofile v0.4.3 // indirect
	github.com/charmbracelet/x/exp/ordered v0.1.0 // indirect
	github.com/charmbracelet/x/exp/slice v0.0.0-20250327172914-2fdc97757edf // indirect
	github.com/charmbracelet/x/termios v0.1.1 // indirect
	github.com/charmbracelet/x/windows v0.2.2 // indirect
	github.com/clipperhouse/uax29/v2 v2.7.0 // indirect
	github.com/dlclark/regexp2 v1.12.0 // indirect
	github.com/gorilla/css v1.0.1 // indirect
	github.com/lucasb-eyer/go-colorful v1.4.1 // indirect
	github.com/mattn/go-runewidth v0.0.27 // indirect
	github.com/microcosm-cc/bluemonday v1.0.27 // indirect
	github.com/muesli/cancelreader v0.2.2 // indirect
	github.com/rivo/uniseg v0.4.7 // indirect
	github.com/xo/terminfo v0.0.0-20220910002029-abceb7e1c41e // indirect
	github.com/yuin/goldmark v1.7.8 // indirect
	github.com/yuin/goldmark-emoji v1.0.5 // indirect
	golang.org/x/net v0.39.0 // indirect
	golang.org/x/sync v0.22.0 // indirect
	golang.org/x/text v0.24.0 // indirect
)
