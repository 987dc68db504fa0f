package cli

import "strings"

// Global flags are accepted anywhere on the command line: after a
// subcommand's name too (`ahptui sessions --config F`), where the
// subcommand's own parser would refuse them. hoistGlobalFlags takes them out
// of a subcommand's arguments (up to a "--"), except those the subcommand
// defines itself (serve's --token is the token it serves with).

// globalValueFlags take a value; globalBoolFlags do not.
var (
	globalValueFlags = map[string]bool{"token": true, "log": true, "theme": true, "config": true}
	globalBoolFlags  = map[string]bool{"no-mouse": true, "mouse": true}
	// ownFlags are the global names a subcommand defines for itself.
	ownFlags = map[command]map[string]bool{cmdServe: {"token": true}}
)

// hoistGlobalFlags splits a subcommand's arguments into the global flags
// (in the form the global parser reads) and the rest, in order.
func hoistGlobalFlags(cmd command, args []string) (globals, rest []string) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return globals, append(rest, args[i:]...)
		}
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		isFlag := strings.HasPrefix(a, "-") && a != "-"
		switch {
		case !isFlag || ownFlags[cmd][name]:
			rest = append(rest, a)
		case globalBoolFlags[name]:
			globals = append(globals, a)
		case globalValueFlags[name] && hasValue:
			globals = append(globals, a)
		case globalValueFlags[name] && i+1 < len(args):
			globals = append(globals, a, args[i+1])
			i++
		default:
			rest = append(rest, a)
		}
	}
	return globals, rest
}
