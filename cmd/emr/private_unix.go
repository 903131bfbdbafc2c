//go:build unix

package main

import "syscall"

// privateUmask makes every file the process creates private to its owner (0600, folders
// 0700): the database and its write-ahead log, archives, the key file.
func privateUmask() { syscall.Umask(0o077) }
