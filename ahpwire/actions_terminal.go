package ahpwire

// Terminal action types (`ahp-terminal:` channels).
const (
	ActionTerminalData                      = "terminal/data"
	ActionTerminalInput                     = "terminal/input"
	ActionTerminalResized                   = "terminal/resized"
	ActionTerminalClaimed                   = "terminal/claimed"
	ActionTerminalTitleChanged              = "terminal/titleChanged"
	ActionTerminalCwdChanged                = "terminal/cwdChanged"
	ActionTerminalExited                    = "terminal/exited"
	ActionTerminalCleared                   = "terminal/cleared"
	ActionTerminalCommandDetectionAvailable = "terminal/commandDetectionAvailable"
	ActionTerminalCommandExecuted           = "terminal/commandExecuted"
	ActionTerminalCommandFinished           = "terminal/commandFinished"
)

func init() {
	actionRegistry[ActionTerminalData] = func() Action { return new(TerminalData) }
	actionRegistry[ActionTerminalInput] = func() Action { return new(TerminalInput) }
	actionRegistry[ActionTerminalResized] = func() Action { return new(TerminalResized) }
	actionRegistry[ActionTerminalClaimed] = func() Action { return new(TerminalClaimed) }
	actionRegistry[ActionTerminalTitleChanged] = func() Action { return new(TerminalTitleChanged) }
	actionRegistry[ActionTerminalCwdChanged] = func() Action { return new(TerminalCwdChanged) }
	actionRegistry[ActionTerminalExited] = func() Action { return new(TerminalExited) }
	actionRegistry[ActionTerminalCleared] = func() Action { return new(TerminalCleared) }
	actionRegistry[ActionTerminalCommandDetectionAvailable] = func() Action { return new(TerminalCommandDetectionAvailable) }
	actionRegistry[ActionTerminalCommandExecuted] = func() Action { return new(TerminalCommandExecuted) }
	actionRegistry[ActionTerminalCommandFinished] = func() Action { return new(TerminalCommandFinished) }
}

// TerminalData is pty output (may contain escape sequences), appended to
// the terminal's content.
type TerminalData struct {
	Data string `json:"data"`
}

// TerminalInput is keyboard input for the pty (side effect only; the
// reducer ignores it). Client-dispatchable.
type TerminalInput struct {
	Data string `json:"data"`
}

// TerminalResized sets the terminal size. Client-dispatchable.
type TerminalResized struct {
	Cols int64 `json:"cols"`
	Rows int64 `json:"rows"`
}

// TerminalClaimed transfers the terminal's claim. Client-dispatchable.
type TerminalClaimed struct {
	Claim TerminalClaim `json:"claim"`
}

// TerminalTitleChanged renames the terminal. Client-dispatchable.
type TerminalTitleChanged struct {
	Title string `json:"title"`
}

// TerminalCwdChanged sets the working directory.
type TerminalCwdChanged struct {
	Cwd string `json:"cwd"`
}

// TerminalExited records the process exit code (nil when killed).
type TerminalExited struct {
	ExitCode *int64 `json:"exitCode,omitempty"`
}

// TerminalCleared empties the content. Client-dispatchable.
type TerminalCleared struct{}

// TerminalCommandDetectionAvailable says the terminal now reports
// commands.
type TerminalCommandDetectionAvailable struct{}

// TerminalCommandExecuted starts a command part; later data is its output.
type TerminalCommandExecuted struct {
	CommandID   string `json:"commandId"`
	CommandLine string `json:"commandLine"`
	Timestamp   int64  `json:"timestamp"`
}

// TerminalCommandFinished completes the command part with CommandID.
type TerminalCommandFinished struct {
	CommandID  string `json:"commandId"`
	ExitCode   *int64 `json:"exitCode,omitempty"`
	DurationMs *int64 `json:"durationMs,omitempty"`
}

// ActionType returns ActionTerminalData.
func (*TerminalData) ActionType() string { return ActionTerminalData }

// ActionType returns ActionTerminalInput.
func (*TerminalInput) ActionType() string { return ActionTerminalInput }

// ActionType returns ActionTerminalResized.
func (*TerminalResized) ActionType() string { return ActionTerminalResized }

// ActionType returns ActionTerminalClaimed.
func (*TerminalClaimed) ActionType() string { return ActionTerminalClaimed }

// ActionType returns ActionTerminalTitleChanged.
func (*TerminalTitleChanged) ActionType() string { return ActionTerminalTitleChanged }

// ActionType returns ActionTerminalCwdChanged.
func (*TerminalCwdChanged) ActionType() string { return ActionTerminalCwdChanged }

// ActionType returns ActionTerminalExited.
func (*TerminalExited) ActionType() string { return ActionTerminalExited }

// ActionType returns ActionTerminalCleared.
func (*TerminalCleared) ActionType() string { return ActionTerminalCleared }

// ActionType returns ActionTerminalCommandDetectionAvailable.
func (*TerminalCommandDetectionAvailable) ActionType() string {
	return ActionTerminalCommandDetectionAvailable
}

// ActionType returns ActionTerminalCommandExecuted.
func (*TerminalCommandExecuted) ActionType() string { return ActionTerminalCommandExecuted }

// ActionType returns ActionTerminalCommandFinished.
func (*TerminalCommandFinished) ActionType() string { return ActionTerminalCommandFinished }

// MarshalJSON writes the action with its type.
func (a TerminalData) MarshalJSON() ([]byte, error) {
	type plain TerminalData
	return withType(ActionTerminalData, plain(a))
}

// MarshalJSON writes the action with its type.
func (a TerminalInput) MarshalJSON() ([]byte, error) {
	type plain TerminalInput
	return withType(ActionTerminalInput, plain(a))
}

// MarshalJSON writes the action with its type.
func (a TerminalResized) MarshalJSON() ([]byte, error) {
	type plain TerminalResized
	return withType(ActionTerminalResized, plain(a))
}

// MarshalJSON writes the action with its type.
func (a TerminalClaimed) MarshalJSON() ([]byte, error) {
	type plain TerminalClaimed
	return withType(ActionTerminalClaimed, plain(a))
}

// MarshalJSON writes the action with its type.
func (a TerminalTitleChanged) MarshalJSON() ([]byte, error) {
	type plain TerminalTitleChanged
	return withType(ActionTerminalTitleChanged, plain(a))
}

// MarshalJSON writes the action with its type.
func (a TerminalCwdChanged) MarshalJSON() ([]byte, error) {
	type plain TerminalCwdChanged
	return withType(ActionTerminalCwdChanged, plain(a))
}

// MarshalJSON writes the action with its type.
func (a TerminalExited) MarshalJSON() ([]byte, error) {
	type plain TerminalExited
	return withType(ActionTerminalExited, plain(a))
}

// MarshalJSON writes the action with its type.
func (a TerminalCleared) MarshalJSON() ([]byte, error) {
	return withType(ActionTerminalCleared, struct{}{})
}

// MarshalJSON writes the action with its type.
func (a TerminalCommandDetectionAvailable) MarshalJSON() ([]byte, error) {
	return withType(ActionTerminalCommandDetectionAvailable, struct{}{})
}

// MarshalJSON writes the action with its type.
func (a TerminalCommandExecuted) MarshalJSON() ([]byte, error) {
	type plain TerminalCommandExecuted
	return withType(ActionTerminalCommandExecuted, plain(a))
}

// MarshalJSON writes the action with its type.
func (a TerminalCommandFinished) MarshalJSON() ([]byte, error) {
	type plain TerminalCommandFinished
	return withType(ActionTerminalCommandFinished, plain(a))
}
