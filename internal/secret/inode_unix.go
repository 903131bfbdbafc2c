//go:build unix

package secret

import (
	"os"
	"syscall"
)

// inode is the file's inode number: a key file renamed over another has a new one, even
// within the modification time's resolution.
func inode(info os.FileInfo) uint64 {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Ino)
	}
	return 0
}
