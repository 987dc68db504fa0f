package picker

import (
	"fmt"
)

// countText is the picker's count: the sessions it lists (archived ones
// only while they are shown), and how many archived ones are hidden.
func (p *Model) countText() string {
	listed, hidden := 0, 0
	for _, e := range p.Entries {
		if p.visible(e) {
			listed++
		} else {
			hidden++
		}
	}
	if hidden > 0 && !p.showArchived {
		return fmt.Sprintf("  %d · %d archived", listed, hidden)
	}
	return fmt.Sprintf("  %d", listed)
}
