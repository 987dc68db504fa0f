package cli

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strconv"

	"github.com/ahptui/ahptui/keymap"
	"github.com/ahptui/ahptui/tui"

	cfgfile "github.com/ahptui/ahptui/internal/config"
)

// target is the host a command talks to.
type target struct {
	url   string // ws://, wss:// or ws+unix:// (may carry ?tkn=)
	token string // "" = from the URL, if any
	name  string // the config host name, "" for a URL
	param string // the token query parameter ("" = tkn), from the config host
	ssh   *cfgfile.Host
}

// errNoTarget is returned when no URL, no @name and no default host exist.
var errNoTarget = errors.New("missing command or URL (try: ahptui demo, or set default in the config file)")

// readConfig is the preamble of the commands that read the config file:
// it loads the file and, when apply is set, applies it to cfg (applyConfig).
// On an error it prints it and returns ok false (exit code: exitUsage).
func readConfig(cfg *config, std stdio, apply bool) (f *cfgfile.File, ok bool) {
	f, err := loadConfigFile(*cfg)
	if err == nil && apply {
		err = applyConfig(cfg, f)
	}
	if err != nil {
		printErr(std.err, "ahptui: %v\n", err)
		return nil, false
	}
	return f, true
}

// loadConfigFile reads the config file (--config, $AHPTUI_CONFIG or the
// default path). A file named explicitly must exist.
func loadConfigFile(cfg config) (*cfgfile.File, error) {
	path := cfg.configFile
	required := path != "" || lookupEnv("AHPTUI_CONFIG") != ""
	if path == "" {
		p, err := cfgfile.Path(lookupEnv)
		if err != nil {
			return nil, err //nolint:wrapcheck // already says "config:"
		}
		path = p
	}
	f, err := cfgfile.Load(path, required)
	if err != nil {
		return nil, err //nolint:wrapcheck // names the file, line and key
	}
	return f, nil
}

// resolveTarget picks the host: a URL, an @name, or the default host. The
// token comes from --token/AHPTUI_TOKEN when given on the command line,
// else from the host's token_env/token_cmd, else from the environment.
func resolveTarget(ctx context.Context, cfg config, f *cfgfile.File, name, rawURL string) (target, error) {
	if rawURL != "" {
		if err := checkURL(rawURL); err != nil {
			return target{}, err
		}
		return target{url: rawURL, token: cfg.token}, nil
	}
	if name == "" {
		name = f.Default
	}
	if name == "" {
		return target{}, &usageError{msg: errNoTarget.Error()}
	}
	h, err := f.Lookup(name)
	if err != nil {
		return target{}, &usageError{msg: err.Error()}
	}
	t := target{url: h.URL, token: cfg.token, name: name, param: h.TokenParam}
	if h.SSH != "" {
		hc := h
		t.ssh = &hc
	}
	if !cfg.tokenFlag {
		tok, err := h.ResolveToken(ctx, lookupEnv)
		if err != nil {
			return target{}, fmt.Errorf("host %s: %w", name, err)
		}
		if tok != "" {
			t.token = tok
		}
	}
	return t, nil
}

// applyConfig takes the theme and the key overrides from the config file
// (the command line's --theme wins). A key override the key map refuses is
// reported at its line.
func applyConfig(cfg *config, f *cfgfile.File) error {
	cfg.theme = effectiveTheme(*cfg, f)
	cfg.noMouse = !mouseCaptured(*cfg, f)
	cfg.notify = &tui.NotifyOptions{Bell: f.Notify.BellOn(), Desktop: f.Notify.Desktop,
		Events: f.Notify.Events, InTmux: lookupEnv("TMUX") != ""}
	if len(f.Keys) == 0 {
		return nil
	}
	names := make([]string, 0, len(f.Keys))
	for n := range f.Keys {
		names = append(names, n)
	}
	sort.Strings(names)
	km := keymap.Default()
	for _, n := range names {
		keys, err := cfgfile.KeyList(f.Keys[n])
		if err == nil {
			km, err = keymap.Override(km, map[string][]string{n: keys})
		}
		if err != nil {
			return f.ErrorAt("keys."+strconv.Quote(n), err)
		}
	}
	cfg.keys = &km
	return nil
}

// mouseCaptured: --no-mouse, else --mouse, else the config file's mouse,
// else off (the terminal keeps the mouse, so drag-select and copy work).
func mouseCaptured(cfg config, f *cfgfile.File) bool {
	switch {
	case cfg.noMouse:
		return false
	case cfg.mouse:
		return true
	case f != nil && f.Mouse != nil:
		return *f.Mouse
	}
	return false
}

// effectiveTheme is --theme, else the config file's theme, else auto.
func effectiveTheme(cfg config, f *cfgfile.File) string {
	switch {
	case cfg.theme != "":
		return cfg.theme
	case f != nil && f.Theme != "":
		return f.Theme
	}
	return "auto"
}
