//go:build !unix

package main

// privateUmask has nothing to set where there is no umask.
func privateUmask() {}
