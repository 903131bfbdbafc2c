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

// lock holds an exclusive lock beside the key file (path.lock) until unlock: two rotations
// or retirements at once would each write the file from what they read, and one's new key
// — which it may have re-sealed values under — would be lost.
func lock(path string) (unlock func(), err error) {
	f, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() { _ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN); f.Close() }, nil
}
