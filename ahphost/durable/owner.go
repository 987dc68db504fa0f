package durable

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// OwnerFileName names the file beside the database naming the process that
// holds it, for a second host's refusal message.
const OwnerFileName = "owner.json"

// ownerFile is OwnerFileName.
const ownerFile = OwnerFileName

// Owner is the process that holds a state database.
type Owner struct {
	// PID is its process id.
	PID int `json:"pid"`
	// Addr is the address it serves ("" for an embedded host).
	Addr string `json:"addr,omitempty"`
}

// SetOwner records this process (and the address it serves) as the
// database's holder.
func (d *DB) SetOwner(addr string) error {
	b, err := json.Marshal(Owner{PID: os.Getpid(), Addr: addr})
	if err != nil {
		return fmt.Errorf("owner record: %w", err)
	}
	tmp := filepath.Join(d.dir, "."+ownerFile+".tmp")
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return fmt.Errorf("owner record: %w", err)
	}
	if err := os.Rename(tmp, filepath.Join(d.dir, ownerFile)); err != nil {
		_ = os.Remove(tmp)
		return fmt.Errorf("owner record: %w", err)
	}
	return nil
}

// readOwner reads the owner record (zero when missing or unreadable).
func readOwner(dir string) Owner {
	var o Owner
	if b, err := os.ReadFile(filepath.Join(dir, ownerFile)); err == nil {
		_ = json.Unmarshal(b, &o)
	}
	return o
}
