package ahpstate

import (
	"strings"

	"github.com/ahptui/ahptui/ahpwire"
)

// ValidateSessionAction checks a client-dispatched session action against
// the current session state; clientID is the dispatching client.
func ValidateSessionAction(s ahpwire.SessionState, a ahpwire.Action, clientID string) error {
	if isNil(a) {
		return reject("missing action")
	}
	if err := checkDispatchable(a.ActionType(), ScopeSession); err != nil {
		return err
	}
	switch a := a.(type) {
	case *ahpwire.SessionTitleChanged:
		if strings.TrimSpace(a.Title) == "" {
			return reject("empty session title")
		}
	case *ahpwire.SessionActiveClientSet:
		if a.ActiveClient.ClientID != clientID {
			return reject("a client may only set its own active-client entry")
		}
	case *ahpwire.SessionActiveClientRemoved:
		if a.ClientID != clientID {
			return reject("a client may only remove its own active-client entry")
		}
		for _, c := range s.ActiveClients {
			if c.ClientID == a.ClientID {
				return nil
			}
		}
		return reject("client %q is not an active client", a.ClientID)
	case *ahpwire.SessionWorkingDirectorySet:
		if a.Directory == "" {
			return reject("empty working directory")
		}
	case *ahpwire.SessionConfigChanged:
		return validateConfigChange(s, a)
	case *ahpwire.SessionWorkingDirectoryRemoved, *ahpwire.SessionIsReadChanged, *ahpwire.SessionIsArchivedChanged:
	default:
		return reject("action %s is not supported by this host", a.ActionType())
	}
	return nil
}

// ValidateRootAction checks a client-dispatched root action.
func ValidateRootAction(s ahpwire.RootState, a ahpwire.Action, clientID string) error {
	if isNil(a) {
		return reject("missing action")
	}
	if err := checkDispatchable(a.ActionType(), ScopeRoot); err != nil {
		return err
	}
	switch a.(type) {
	case *ahpwire.RootConfigChanged:
		if s.Config == nil {
			return reject("this host has no configuration")
		}
		return nil
	}
	return reject("action %s is not supported by this host", a.ActionType())
}
