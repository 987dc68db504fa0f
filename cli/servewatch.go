package cli

import (
	"context"
	"errors"
)

// configWatchToken fills cfg's watch token from the configuration file's
// [serve] table (watch_token_env, watch_token_cmd or watch_token) when
// --watch-token was not given; the flag wins.
func configWatchToken(cfg *serveConfig, configFile string) error {
	if cfg.Options.WatchToken != "" {
		return nil
	}
	f, err := loadConfigFile(config{configFile: configFile})
	if err != nil {
		return err
	}
	t, err := f.Serve.ResolveWatchToken(context.Background(), lookupEnv)
	if err != nil {
		return err
	}
	if t == "" {
		return nil
	}
	if cfg.Options.NoToken {
		return errors.New("the config's watch token needs a connection token (without one every client may do everything)")
	}
	if t == cfg.Options.Token {
		return errors.New("the config's watch token is the connection token")
	}
	cfg.Options.WatchToken = t
	return nil
}
