//go:build !(linux || darwin)

package plugin

// mmapMemory is not used on this system: linear memories stay in the Go
// heap, wazero's default.
type mmapMemory struct{}

func linearMemory(uint64) *mmapMemory { return nil }

func (m *mmapMemory) Reallocate(uint64) []byte { return nil }
func (m *mmapMemory) Free()                    {}
func (m *mmapMemory) unmap()                   {}
func (m *mmapMemory) size() int                { return 0 }
